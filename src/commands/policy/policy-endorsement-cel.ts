// The policy on PtahSchema writes that keeps endorsements honest: the annotations of
// src/approval/endorsement.ts are append-only, each person adds only their own username, once, to
// the current plan's key, only as a member of the endorser group, never as the last spec writer,
// and never together with a spec change; the current key is never removed (keys of older plans may
// be, they count for nothing). Its match condition passes only writes that touch those annotations,
// so the operator's own writes (status, finalizers, its annotations) are never judged.
import { ENDORSEMENT_PREFIX } from "../../approval/endorsement.ts";
import { PTAH_GROUP } from "../../model/api.ts";
import { LAST_SPEC_WRITER_USERNAME } from "../../model/spec-writer.ts";
import { lit, type Validation, type Variable } from "./policy-cel.ts";

const P = lit(ENDORSEMENT_PREFIX);
const hasAnn = (o: string) => `has(${o}.metadata.annotations)`;
const inAnn = (o: string, k: string) => `(${hasAnn(o)} && ${k} in ${o}.metadata.annotations)`;
const OLD = "oldObject != null";

/** Whether the caller may `update` this schema: a spec writer; an endorser has `patch` only (rbac/ptah-endorser.yaml). */
const MAY_UPDATE = `authorizer.group(${lit(PTAH_GROUP)}).resource('ptahschemas').namespace(request.namespace).name(object.metadata.name).check('update').allowed()`;

/**
 * Whether the policy judges the write (CEL of a match condition: no variables there): it touches an
 * endorsement annotation, or it is an update by someone without `update` (a patch by an endorser).
 */
export const JUDGED = [
  `(request.operation == 'UPDATE' && !${MAY_UPDATE})`,
  `(${hasAnn("object")} && object.metadata.annotations.exists(k, k.startsWith(${P}) && !(${OLD} && ${inAnn("oldObject", "k")} && oldObject.metadata.annotations[k] == object.metadata.annotations[k])))`,
  `(${OLD} && ${hasAnn("oldObject")} && oldObject.metadata.annotations.exists(k, k.startsWith(${P}) && !${inAnn("object", "k")}))`,
].join(" || ");

export function endorsementVariables(): Variable[] {
  const fp = "object.status.plan.fingerprint";
  const name = `${fp}.replace(':', '-')`;
  return [
    { name: "me", expression: "request.userInfo.username" },
    {
      name: "current",
      expression: `has(object.status) && has(object.status.plan) && has(${fp}) ? ${P} + (${name}.size() > 63 ? ${name}.substring(0, 63) : ${name}) : ''`,
    },
    {
      name: "added",
      expression: `${hasAnn("object")} ? object.metadata.annotations.filter(k, k.startsWith(${P}) && !(${OLD} && ${inAnn("oldObject", "k")} && oldObject.metadata.annotations[k] == object.metadata.annotations[k])) : []`,
    },
    {
      name: "removed",
      expression: `${OLD} && ${hasAnn("oldObject")} ? oldObject.metadata.annotations.filter(k, k.startsWith(${P}) && !${inAnn("object", "k")}) : []`,
    },
    { name: "hadCurrent", expression: `variables.current != '' && ${OLD} && ${inAnn("oldObject", "variables.current")}` },
    { name: "before", expression: "variables.hadCurrent ? oldObject.metadata.annotations[variables.current] : ''" },
    {
      name: "writer",
      expression: `${inAnn("object", lit(LAST_SPEC_WRITER_USERNAME))} ? object.metadata.annotations[${lit(LAST_SPEC_WRITER_USERNAME)}].trim() : ''`,
    },
    { name: "endorsing", expression: "size(variables.added) > 0" },
    { name: "mayUpdate", expression: MAY_UPDATE },
    {
      name: "onlyEndorsements",
      expression: [
        "object.spec == oldObject.spec",
        same("labels"),
        same("finalizers"),
        `(!${hasAnn("object")} || object.metadata.annotations.all(k, k.startsWith(${P}) || (${inAnn("oldObject", "k")} && oldObject.metadata.annotations[k] == object.metadata.annotations[k])))`,
        `(!${hasAnn("oldObject")} || oldObject.metadata.annotations.all(k, k.startsWith(${P}) || ${inAnn("object", "k")}))`,
      ].join(" && "),
    },
  ];
}

/** Whether a metadata field is the same before and after (absent on both sides counts as the same). */
function same(field: string): string {
  const a = `object.metadata.${field}`;
  const b = `oldObject.metadata.${field}`;
  return `has(${a}) == has(${b}) && (!has(${a}) || ${a} == ${b})`;
}

const SCHEMA = "request.namespace + '/' + object.metadata.name";
const ENDORSE = "'kubectl ptah endorse ' + object.metadata.name + ' -n ' + request.namespace";

/** In order: the first that fails names what happened. */
export function endorsementValidations(group: string): Validation[] {
  const v = (expression: string, messageExpression: string): Validation => ({ expression, messageExpression, reason: "Forbidden" });
  return [
    v(
      "request.operation != 'CREATE'",
      `'a PtahSchema is created without endorsements (annotations ${ENDORSEMENT_PREFIX}…). Next: create it without them, and once its plan is published, members of ${group} run ' + ${ENDORSE}`,
    ),
    v(
      "variables.mayUpdate || variables.onlyEndorsements",
      `variables.me + ' may not update schema ' + ${SCHEMA} + ', so a write of theirs may change nothing but their own endorsement of its current plan (not its spec, labels, finalizers or other annotations). Next: ask one of its spec writers, or run ' + ${ENDORSE} + ' and the line it prints'`,
    ),
    v(
      "variables.current == '' || !(variables.current in variables.removed)",
      `'the endorsements of the current plan of schema ' + ${SCHEMA} + ' (' + variables.current + ') cannot be removed; they lapse by themselves when the plan changes. Next: keep the annotation in the write (kubectl annotate or patch only what you mean to change)'`,
    ),
    v(
      "!variables.endorsing || object.spec == oldObject.spec",
      `'an endorsement cannot change the spec of schema ' + ${SCHEMA} + ' in the same request. Next: send the endorsement alone, the line ' + ${ENDORSE} + ' prints'`,
    ),
    v(
      "!variables.endorsing || variables.current != ''",
      `'schema ' + ${SCHEMA} + ' has no current plan to endorse. Next: kubectl ptah status ' + object.metadata.name + ' -n ' + request.namespace`,
    ),
    v(
      "variables.added.all(k, k == variables.current)",
      `'annotation ' + variables.added.filter(k, k != variables.current)[0] + ' is not the key of the current plan of schema ' + ${SCHEMA} + ' (' + variables.current + '); only the current plan is endorsed. Next: run ' + ${ENDORSE} + ' and the line it prints'`,
    ),
    v(
      `!variables.endorsing || request.userInfo.groups.exists(g, g == ${lit(group)})`,
      `variables.me + ' is not a member of group ${group}, whose members endorse plans here. Next: ask a member of ${group} to run ' + ${ENDORSE}`,
    ),
    v(
      "!variables.endorsing || variables.me != variables.writer",
      `variables.me + ' last changed the spec of schema ' + ${SCHEMA} + ' and cannot endorse its plan (four eyes). Next: ask another member of ${group} to run ' + ${ENDORSE}`,
    ),
    v(
      "!variables.endorsing || !variables.hadCurrent || !(variables.me in variables.before.split(','))",
      `variables.me + ' already endorsed the current plan of schema ' + ${SCHEMA} + '; an endorsement counts once. Next: kubectl ptah status ' + object.metadata.name + ' -n ' + request.namespace`,
    ),
    v(
      "!variables.endorsing || (!variables.me.contains(',') && object.metadata.annotations[variables.current] == (variables.hadCurrent ? variables.before + ',' + variables.me : variables.me))",
      `'an endorsement appends exactly your own username to ' + variables.current + ': expected the value ' + (variables.me.contains(',') ? '(none: a username with a comma cannot endorse)' : (variables.hadCurrent ? variables.before + ',' + variables.me : variables.me)) + '. Next: run ' + ${ENDORSE} + ' and the line it prints'`,
    ),
  ];
}
