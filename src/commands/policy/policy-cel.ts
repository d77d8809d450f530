// The CEL text of the policies `policy render` prints, built from parsed flags only (policy-spec.ts
// admits nothing that could leave a single-quoted CEL string). Kubernetes' CEL has no now():
// windows and freezes read `metadata.creationTimestamp`, which the API server sets from its own
// clock on every create before validating admission (a client's value is overwritten, also under
// dryRun=All), and CEL's getDayOfWeek/getHours/getMinutes/getFullYear/getMonth/getDate take an
// IANA zone. Endorsements are the annotation src/approval/endorsement.ts describes.
import { ENDORSEMENT_PREFIX } from "../../approval/endorsement.ts";
import { LAST_SPEC_WRITER_USERNAME } from "../../model/spec-writer.ts";
import { type Freeze, type Quorum, type Window } from "./policy-spec.ts";

/** A validated word as a CEL string literal. */
export const lit = (s: string): string => `'${s}'`;

/** A CEL variable as `variables:` declares it. */
export interface Variable {
  readonly name: string;
  readonly expression: string;
}

export interface Validation {
  readonly expression: string;
  readonly messageExpression: string;
  readonly reason: "Forbidden";
}

/** The approved object's target, for messages: `schema NS/NAME` or `migration NS/NAME`. */
export const TARGET =
  "(has(object.spec.schemaRef) ? 'schema ' + request.namespace + '/' + object.spec.schemaRef.name : 'migration ' + request.namespace + '/' + object.spec.migrationRef.name)";
/** The command that prints the approval again, for messages. */
export const APPROVE_AGAIN =
  "(has(object.spec.schemaRef) ? 'kubectl ptah approve ' + object.spec.schemaRef.name : 'kubectl ptah approve migration ' + object.spec.migrationRef.name) + ' -n ' + request.namespace + ' | kubectl create -f -'";

export function breakglassVariable(group: string | undefined): Variable {
  return { name: "breakglass", expression: group === undefined ? "false" : `request.userInfo.groups.exists(g, g == ${lit(group)})` };
}

/** The endorsement key of a fingerprint expression, as endorsementKey() derives it. */
function keyOf(fingerprint: string): string {
  const name = `${fingerprint}.replace(':', '-')`;
  return `${lit(ENDORSEMENT_PREFIX)} + (${name}.size() > 63 ? ${name}.substring(0, 63) : ${name})`;
}

// ---- the quorum, on approval creates, with the schema as the parameter --------------------------

/**
 * Evaluated once for every PtahSchema of the approval's namespace (the binding selects them all:
 * a parameter cannot be named by the object), it judges only the schema the approval names.
 */
export function quorumVariables(q: Quorum, breakglass: string | undefined): Variable[] {
  const plan = "params.status.plan";
  const destructive = q.risky.includes("destructive") ? `(has(${plan}.destructive) && ${plan}.destructive)` : "false";
  const privileges = q.risky.includes("privileges") ? `(has(${plan}.privilegeChanges) && size(${plan}.privilegeChanges) > 0)` : "false";
  const annotations = "params.metadata.annotations";
  return [
    { name: "mine", expression: "has(object.spec.schemaRef) && params.metadata.name == object.spec.schemaRef.name" },
    { name: "planned", expression: `has(params.status) && has(${plan}) && has(${plan}.fingerprint)` },
    { name: "destructive", expression: `variables.planned && ${destructive}` },
    { name: "privileges", expression: `variables.planned && ${privileges}` },
    { name: "risky", expression: "variables.destructive || variables.privileges" },
    { name: "key", expression: `variables.planned ? ${keyOf(`${plan}.fingerprint`)} : ''` },
    {
      name: "writer",
      expression: `has(${annotations}) && ${lit(LAST_SPEC_WRITER_USERNAME)} in ${annotations} ? ${annotations}[${lit(LAST_SPEC_WRITER_USERNAME)}].trim() : ''`,
    },
    { name: "listed", expression: `variables.key != '' && has(${annotations}) && variables.key in ${annotations} ? ${annotations}[variables.key].split(',') : []` },
    {
      name: "counted",
      expression: "variables.listed.filter(u, u != '' && u != request.userInfo.username && u != variables.writer && variables.listed.exists_one(v, v == u))",
    },
    breakglassVariable(breakglass),
    { name: "short", expression: `variables.mine && variables.risky && size(variables.counted) < ${q.endorsements}` },
  ];
}

export function quorumValidation(q: Quorum): Validation {
  const name = "params.metadata.name";
  const ns = "request.namespace";
  const why = "(variables.destructive && variables.privileges ? 'is destructive and changes privileges' : variables.destructive ? 'is destructive' : 'changes privileges')";
  const has = "string(size(variables.counted)) + (size(variables.counted) > 0 ? ' (' + variables.counted.join(', ') + ')' : '')";
  return {
    expression: "!variables.short || variables.breakglass",
    messageExpression: [
      `'the current plan of schema ' + ${ns} + '/' + ${name} + ' ' + ${why}`,
      `' and needs ${q.endorsements} endorsement${q.endorsements === 1 ? "" : "s"} from group ${q.group} besides the approver; it has ' + ${has}`,
      `'. Next: a member of ${q.group} who did not write its spec reviews it (kubectl ptah plan ' + ${name} + ' -n ' + ${ns} + ') and runs the line kubectl ptah endorse ' + ${name} + ' -n ' + ${ns} + ' prints; then create the approval again'`,
    ].join(" + "),
    reason: "Forbidden",
  };
}

export function quorumAudit(q: Quorum): string {
  return `variables.short && variables.breakglass ? 'break-glass: ' + request.userInfo.username + ' approved a risky plan of schema ' + request.namespace + '/' + params.metadata.name + ' with ' + string(size(variables.counted)) + ' of ${q.endorsements} endorsements' : ''`;
}

// ---- windows and freezes, on approval creates ----------------------------------------------------

const AT = "variables.at";
export const AT_VARIABLE: Variable = { name: "at", expression: "timestamp(object.metadata.creationTimestamp)" };

function inWindow(w: Window): string {
  const z = lit(w.zone);
  const minute = `${AT}.getHours(${z}) * 60 + ${AT}.getMinutes(${z})`;
  const days = w.days.length === 7 ? "true" : `${AT}.getDayOfWeek(${z}) in [${w.days.join(", ")}]`;
  return `(${days} && ${minute} >= ${w.start} && ${minute} < ${w.end})`;
}

export function windowVariables(windows: readonly Window[], breakglass: string | undefined): Variable[] {
  return [AT_VARIABLE, breakglassVariable(breakglass), { name: "open", expression: windows.map(inWindow).join(" || ") }];
}

export function windowValidation(windows: readonly Window[], breakglass: string | undefined): Validation {
  const list = windows.map((w) => w.text).join("; ");
  const glass = breakglass === undefined ? "" : `, or, in an emergency, have a member of ${breakglass} create it (recorded in the audit log)`;
  return {
    expression: "variables.open || variables.breakglass",
    messageExpression: `'approvals are admitted only within the change window${windows.length > 1 ? "s" : ""} ${list}; this approval of ' + ${TARGET} + ' arrived at ' + string(${AT}) + '. Next: run ' + ${APPROVE_AGAIN} + ' again once the window is open${glass}'`,
    reason: "Forbidden",
  };
}

/** The calendar date of `at` in `zone` as a number YYYYMMDD (CEL's getMonth counts from 0, getDate from 1). */
function dateIn(zone: string): string {
  const z = lit(zone);
  return `(${AT}.getFullYear(${z}) * 10000 + (${AT}.getMonth(${z}) + 1) * 100 + ${AT}.getDate(${z}))`;
}

const dateNumber = (date: string): number => Number(date.replaceAll("-", ""));

function inFreeze(f: Freeze): string {
  const day = dateIn(f.zone);
  return `(${day} >= ${dateNumber(f.from)} && ${day} <= ${dateNumber(f.to)})`;
}

export function freezeVariables(freezes: readonly Freeze[], breakglass: string | undefined): Variable[] {
  return [AT_VARIABLE, breakglassVariable(breakglass), { name: "frozen", expression: freezes.map(inFreeze).join(" || ") }];
}

export function freezeValidation(f: Freeze, breakglass: string | undefined): Validation {
  const glass = breakglass === undefined ? "" : `, or, in an emergency, have a member of ${breakglass} create it (recorded in the audit log)`;
  return {
    expression: `variables.breakglass || !${inFreeze(f)}`,
    messageExpression: `'approvals are frozen from ${f.from} to ${f.to} (whole days, ${f.zone}); this approval of ' + ${TARGET} + ' arrived at ' + string(${AT}) + '. Next: run ' + ${APPROVE_AGAIN} + ' again after ${f.to}${glass}'`,
    reason: "Forbidden",
  };
}

/** The audit annotation of an approval admitted through the break-glass group while `closed` held. */
export function timeAudit(what: string, closed: string): string {
  return `variables.breakglass && ${closed} ? 'break-glass: ' + request.userInfo.username + ' approved ' + ${TARGET} + ' ${what} at ' + string(${AT}) : ''`;
}
