// Knowledge-base text for the approval policies `kubectl ptah policy render` prints and the API
// server enforces (ValidatingAdmissionPolicies: a quorum of endorsers for risky plans, weekly
// change windows, freezes, a break-glass group), and for the refusals they write.
import type { KindedTopicText, NextCommand } from "../knowledge-types.ts";
import type { POLICY_CONCEPTS } from "../vocabulary.ts";

type PolicyConcept = (typeof POLICY_CONCEPTS)[number];

const STATUS: NextCommand = { command: "kubectl ptah status <schema> -n <namespace>", purpose: "the Endorsed and Window lines: what the bound policies say now" };
const LIST: NextCommand = {
  command: "kubectl get validatingadmissionpolicies,validatingadmissionpolicybindings -l ptah.run/approval-policy",
  purpose: "the approval policies and bindings the cluster holds",
};
const RENDER: NextCommand = { command: "kubectl ptah policy render --help", purpose: "what each policy enforces, and the flags that render it" };
const APPROVE: NextCommand = { command: "kubectl ptah approve <schema> -n <namespace>", purpose: "says before printing whether the cluster would refuse the approval, and why" };
const APPROVALS = ["PtahSchemaApproval", "PtahMigrationApproval"] as const;

export const POLICY_TOPICS = {
  "approval-policy": {
    summary: "Policies the API server enforces on approvals: quorum, windows, freezes",
    appliesTo: ["PtahSchemaApproval", "PtahMigrationApproval", "PtahSchema"],
    aliases: ["approval policies", "validatingadmissionpolicy", "policy render", "no params found", "parameternotfoundaction"],
    meaning:
      "kubectl ptah policy render prints ValidatingAdmissionPolicies and their bindings, labelled ptah.run/approval-policy: a quorum of endorsers for risky schema plans (PREFIX-quorum, with the namespace's PtahSchemas as parameters), the rules for endorsement annotations (PREFIX-endorsements), weekly change windows (PREFIX-window) and freezes (PREFIX-freeze). The API server evaluates them on every create of an approval, from any client; the plugin reads the same CEL back and predicts the verdict.",
    why: "The operator takes one approval from whoever may create it; the API server alone can add how many and when, with no webhook or controller. The quorum binding says parameterNotFoundAction Deny: in a namespace with no PtahSchema it refuses every schema approval with failed to configure binding: no params found.",
    operatorNext: "Nothing: the operator never sees an approval the API server refused, and the policies never judge the operator's own writes.",
    userAction:
      "Read the refusal's Next: it names the command to run. An administrator applies or deletes the policies; with the quorum bound, create the schema before approving anything in its namespace.",
    next: [STATUS, LIST, RENDER],
    related: ["concept/endorsement", "concept/change-window", "concept/freeze", "concept/break-glass"],
  },
  endorsement: {
    summary: "A reviewer's sign-off on a risky plan, counted before an approval",
    appliesTo: ["PtahSchema", "PtahSchemaApproval"],
    aliases: ["endorsements", "endorse", "quorum", "endorser", "endorsed", "needs endorsements"],
    meaning:
      "An endorsement is the endorser's username in an annotation on the PtahSchema, under a key derived from the current plan's fingerprint (endorsements.ptah.run/…). The quorum policy refuses an approval of a risky plan (destructive, or changing privileges, as rendered) until that many members of the endorser group, other than the approver and the last spec writer, each once, are listed.",
    why: "A count of separate reviewers for risky changes, enforced by the API server for every client. A new plan has a new key, so a re-plan voids the endorsements given to the old one.",
    operatorNext: "Nothing: endorsements are read by the API server when an approval is created; the operator ignores them.",
    userAction:
      "A member of the endorser group who did not write the spec reads the plan and runs the kubectl annotate line kubectl ptah endorse prints, with their own credentials; once enough have, the approver creates the approval again.",
    next: [
      STATUS,
      { command: "kubectl ptah plan <schema> -n <namespace>", purpose: "read the plan before endorsing it" },
      { command: "kubectl ptah endorse <schema> -n <namespace>", purpose: "prints the one annotate line that adds you to the current plan's key" },
    ],
    related: ["concept/endorsement-refused", "concept/approval-policy", "concept/destructive", "concept/privilege-changes", "concept/four-eyes"],
  },
  "endorsement-refused": {
    summary: "Refused: a write of endorsement annotations broke the endorsement rules",
    appliesTo: ["PtahSchema"],
    aliases: ["endorsement refused", "cannot endorse", "already endorsed"],
    meaning:
      "The endorsements policy judges every write that touches an endorsement annotation, or any update by someone who may only patch: each person appends only their own username, once, to the current plan's key, as a member of the endorser group, never as the last spec writer, never with a spec change, and the current key is never removed. The message says which rule the write broke.",
    why: "Endorsements count only if nobody can add someone else's name, count twice, endorse their own spec or quietly drop the current list.",
    operatorNext: "Nothing was stored; the schema is as it was.",
    userAction: "Run the line kubectl ptah endorse prints, unchanged and as yourself; read kubectl ptah status to see who endorsed already.",
    next: [STATUS, { command: "kubectl ptah endorse <schema> -n <namespace>", purpose: "prints the write the policy admits" }],
    related: ["concept/endorsement", "concept/four-eyes"],
  },
  "change-window": {
    summary: "Approvals are admitted only within weekly windows in one time zone",
    appliesTo: [...APPROVALS],
    aliases: ["change windows", "window", "outside the change window", "window closed"],
    meaning:
      "The window policy refuses an approval created outside the rendered weekly windows (days and hours in an IANA zone). The API server judges the approval's metadata.creationTimestamp, which it sets from its own clock on every create, so a client's clock or a forged timestamp does not count.",
    why: "Changes go in when people are there to watch them. CEL in Kubernetes has no now(); the creation time is the server's clock.",
    operatorNext: "Nothing was stored; the plan keeps waiting. An approval admitted inside a window can still be dispatched after it closes.",
    userAction:
      "Create the approval again once the window is open; kubectl ptah status shows when it opens next. In an emergency, a member of the break-glass group (if one is rendered) may create it.",
    next: [STATUS, APPROVE],
    related: ["concept/freeze", "concept/break-glass", "concept/approval-policy"],
  },
  freeze: {
    summary: "Approvals are refused on whole days, e.g. a December freeze",
    appliesTo: [...APPROVALS],
    aliases: ["freezes", "change freeze", "frozen", "approvals are frozen"],
    meaning:
      "The freeze policy refuses an approval created on the rendered days FROM..TO (both included, as calendar dates in one zone), judged on the creationTimestamp the API server sets from its own clock.",
    why: "Some days take no changes at all (holidays, a release), whatever the weekly windows say.",
    operatorNext: "Nothing was stored; the plan keeps waiting.",
    userAction: "Create the approval again after the freeze's last day, or, in an emergency, have a member of the break-glass group create it.",
    next: [STATUS, APPROVE],
    related: ["concept/change-window", "concept/break-glass", "concept/approval-policy"],
  },
  "break-glass": {
    summary: "An emergency group admitted despite quorum, window and freeze, audited",
    appliesTo: [...APPROVALS],
    aliases: ["breakglass", "emergency approval", "breakglass group"],
    meaning:
      "Rendered with --breakglass-group GROUP, every policy admits an approval created by a member of that group even when it is short of endorsements, outside the window or inside a freeze, and writes an audit annotation breakglass naming the user and what was bypassed.",
    why: "An emergency fix must not wait for Monday; the audit log keeps the exception visible afterwards.",
    operatorNext: "The approval is stored and used like any other.",
    userAction: "Use it only in an emergency, as yourself; the audit log records the annotation. Without the flag there is no bypass.",
    next: [STATUS, RENDER],
    related: ["concept/change-window", "concept/freeze", "concept/endorsement"],
  },
} satisfies Record<PolicyConcept, KindedTopicText>;
