// The refusals of the approval policies `kubectl ptah policy render` prints, as the API server
// sends them after "ValidatingAdmissionPolicy '…' with binding '…' denied request:": the quorum,
// the windows, the freezes, each rule of the endorsement annotations, and the API server's own
// line when the quorum's binding finds no PtahSchema. The wording is the renderer's
// (src/commands/policy/*-cel.ts); test/explain/policy-messages.test.ts renders the policies,
// evaluates every message expression and places each message here, so a renderer message without
// a template fails it. Variants (one or several, with or without break-glass) are spelled out.
import type { NextCommand } from "../knowledge-types.ts";
import type { MessageTemplate } from "./message-types.ts";

const SOURCE = "approval policy";
const STATUS: NextCommand = {
  command: "kubectl ptah status <schema> -n <namespace>",
  purpose: "Endorsed: who endorsed the current plan; Window: whether approvals are admitted now",
};
const PLAN: NextCommand = { command: "kubectl ptah plan <schema> -n <namespace>", purpose: "read the plan an endorser signs off" };
const ENDORSE: NextCommand = { command: "kubectl ptah endorse <schema> -n <namespace>", purpose: "prints the one annotate line that adds the caller to the current plan's key" };
const POLICIES: NextCommand = { command: "kubectl ptah policy render --help", purpose: "what each rendered policy enforces" };
const ENDORSE_CMD = "kubectl ptah endorse {schema} -n {namespace}";

const endorsed = (topic: MessageTemplate["topic"], text: string, cause: string, next: readonly NextCommand[] = [STATUS, ENDORSE]): MessageTemplate => ({
  text,
  source: SOURCE,
  topic,
  cause,
  check:
    "kubectl ptah status {schema} -n {namespace} shows the Endorsed line (who endorsed the current plan, how many count); the line kubectl ptah endorse prints is the write the policy admits.",
  next,
});

/** The quorum, on approval creates: one or several endorsements, none or some given. */
const QUORUM: MessageTemplate[] = ["endorsement", "endorsements"].flatMap((noun) =>
  ["", " ({users})"].map((who) =>
    endorsed(
      "concept/endorsement",
      `the current plan of schema {namespace}/{schema} {risk} and needs {count} ${noun} from group {group} besides the approver; it has {have}${who}. Next: a member of {group} who did not write its spec reviews it (kubectl ptah plan {schema} -n {namespace}) and runs the line ${ENDORSE_CMD} prints; then create the approval again`,
      "The plan of schema {namespace}/{schema} {risk}, and the quorum policy admits an approval of such a plan only with {count} endorsement(s) from members of {group} other than the approver and the last spec writer; it has {have} that count.",
      [STATUS, PLAN, ENDORSE],
    ),
  ),
);

const GLASS = ["", ", or, in an emergency, have a member of {group} create it (recorded in the audit log)"];
const TARGETS = [
  { object: "schema {namespace}/{schema}", status: "kubectl ptah status {schema} -n {namespace}", approve: "kubectl ptah approve {schema} -n {namespace}", next: [STATUS] },
  {
    object: "migration {namespace}/{migration}",
    status: "kubectl ptah status SCHEMA -n {namespace} (any schema of the namespace)",
    approve: "kubectl ptah approve migration {migration} -n {namespace}",
    next: [{ command: "kubectl ptah migration <migration> -n <namespace>", purpose: "the migration's plan, still waiting for an approval" }],
  },
];
const timed = (topic: MessageTemplate["topic"], text: (approve: string, glass: string) => string, cause: string, check: (status: string) => string): MessageTemplate[] =>
  TARGETS.flatMap((t) =>
    GLASS.map((glass) => ({
      text: text(t.approve, glass).replace("{object}", t.object),
      source: SOURCE,
      topic,
      cause,
      check: check(t.status),
      next: [
        ...t.next,
        { command: `${t.approve.replace(/\{(schema|migration|namespace)\}/gu, "<$1>")} | kubectl create -f -`, purpose: "create the approval again when it is admitted" },
        POLICIES,
      ],
    })),
  );

const WINDOW: MessageTemplate[] = ["window", "windows"].flatMap((noun) =>
  timed(
    "concept/change-window",
    (approve, glass) =>
      `approvals are admitted only within the change ${noun} {windows}; this approval of {object} arrived at {at}. Next: run ${approve} | kubectl create -f - again once the window is open${glass}`,
    "The window policy admits approvals only within {windows}; the API server stamped this one {at} (its own clock, as metadata.creationTimestamp), outside.",
    (status) => `${status} shows the Window line: whether approvals are admitted now and when the window opens next.`,
  ),
);

const FREEZE: MessageTemplate[] = timed(
  "concept/freeze",
  (approve, glass) =>
    `approvals are frozen from {from} to {to} (whole days, {zone}); this approval of {object} arrived at {at}. Next: run ${approve} | kubectl create -f - again after {to}${glass}`,
  "The freeze policy refuses approvals from {from} to {to}, whole days in {zone}; the API server stamped this one {at} (its own clock), inside.",
  (status) => `${status} shows the Window line, which names the freeze; approvals are admitted again after {to}.`,
);

/** The rules of the endorsement annotations, on PtahSchema writes, in the policy's order. */
const ANNOTATIONS: MessageTemplate[] = [
  endorsed(
    "concept/endorsement-refused",
    `a PtahSchema is created without endorsements (annotations endorsements.ptah.run/…). Next: create it without them, and once its plan is published, members of {group} run ${ENDORSE_CMD}`,
    "A create of schema {namespace}/{schema} carried endorsement annotations; endorsements are given to a published plan, never with the schema.",
  ),
  endorsed(
    "concept/endorsement-refused",
    `{user} may not update schema {namespace}/{schema}, so a write of theirs may change nothing but their own endorsement of its current plan (not its spec, labels, finalizers or other annotations). Next: ask one of its spec writers, or run ${ENDORSE_CMD} and the line it prints`,
    "{user} has patch but not update on schema {namespace}/{schema} (an endorser), and the write changed more than their own endorsement.",
  ),
  endorsed(
    "concept/endorsement-refused",
    "the endorsements of the current plan of schema {namespace}/{schema} ({current}) cannot be removed; they lapse by themselves when the plan changes. Next: keep the annotation in the write (kubectl annotate or patch only what you mean to change)",
    "The write removed annotation {current}, the endorsements of the plan that waits now.",
  ),
  endorsed(
    "concept/endorsement-refused",
    `an endorsement cannot change the spec of schema {namespace}/{schema} in the same request. Next: send the endorsement alone, the line ${ENDORSE_CMD} prints`,
    "The write added an endorsement and changed the spec of schema {namespace}/{schema} at once; a spec change makes a new plan, which the endorsement would not have read.",
  ),
  endorsed(
    "concept/endorsement-refused",
    "schema {namespace}/{schema} has no current plan to endorse. Next: kubectl ptah status {schema} -n {namespace}",
    "Schema {namespace}/{schema} publishes no plan now (status.plan has no fingerprint), so there is no key to endorse.",
    [STATUS],
  ),
  endorsed(
    "concept/endorsement-refused",
    `annotation {key} is not the key of the current plan of schema {namespace}/{schema} ({current}); only the current plan is endorsed. Next: run ${ENDORSE_CMD} and the line it prints`,
    "The write added {key}, but the plan waiting now has the key {current}: the plan changed since the line was printed, or the key was written by hand.",
  ),
  endorsed(
    "concept/endorsement-refused",
    `{user} is not a member of group {group}, whose members endorse plans here. Next: ask a member of {group} to run ${ENDORSE_CMD}`,
    "Only members of {group} may endorse, and the API server saw {user} without that group.",
  ),
  endorsed(
    "concept/endorsement-refused",
    `{user} last changed the spec of schema {namespace}/{schema} and cannot endorse its plan (four eyes). Next: ask another member of {group} to run ${ENDORSE_CMD}`,
    "{user} is the last spec writer of schema {namespace}/{schema}; the author of a change never counts as its reviewer.",
  ),
  endorsed(
    "concept/endorsement-refused",
    "{user} already endorsed the current plan of schema {namespace}/{schema}; an endorsement counts once. Next: kubectl ptah status {schema} -n {namespace}",
    "{user} is already listed under the current plan's key; a second entry would count nothing.",
    [STATUS],
  ),
  endorsed(
    "concept/endorsement-refused",
    `an endorsement appends exactly your own username to {current}: expected the value {users}. Next: run ${ENDORSE_CMD} and the line it prints`,
    "The write set {current} to something other than the list as it was with the caller's own username appended (expected {users}).",
  ),
];

/** The API server's own line when the quorum's binding selects no PtahSchema (parameterNotFoundAction Deny). */
const NO_PARAMS: MessageTemplate = {
  text: "failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
  source: SOURCE,
  topic: "concept/approval-policy",
  cause:
    "The quorum policy judges an approval against the PtahSchemas of its namespace, and its binding refuses when the namespace has none (parameterNotFoundAction Deny): the approval names a schema that is not there.",
  check: "kubectl get ptahschemas -n <namespace> lists none; approve a schema that exists, in its own namespace.",
  next: [{ command: "kubectl get ptahschemas -n <namespace>", purpose: "the schemas the quorum policy could judge" }, POLICIES],
};

export const POLICY_MESSAGES: readonly MessageTemplate[] = [...QUORUM, ...WINDOW, ...FREEZE, ...ANNOTATIONS, NO_PARAMS];
