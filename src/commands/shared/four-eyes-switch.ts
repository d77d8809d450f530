// Is four-eyes on? The operator's mutating webhook configuration `ptah-operator-admission` has the
// two writer entries exactly when approvals.requireDistinctApprover is on (the operator refuses to
// start when they disagree), so whoever may get that configuration knows. Without that permission,
// or without the configuration, the answer is today's inference from the objects' annotations,
// said to be one. doctor, approve and inbox (and explain's realm view, for its namespace) read it.
import { ReadError } from "../../errors.ts";
import { DISTINCT_APPROVER_SWITCH } from "../../model/spec-writer.ts";
import type { AdmissionConfiguration } from "../../kube/types.ts";
import type { Connection } from "../command-types.ts";

export const WRITER_ENTRIES = ["mschemawriter.operator.ptah.run", "mmigrationwriter.operator.ptah.run"] as const;
/** The annotation naming the namespace where the operator keeps every realm's Lease. */
export const COORDINATION_NAMESPACE_ANNOTATION = "operator.ptah.run/coordination-namespace";

export type FourEyesSwitch =
  | { readonly kind: "on" | "off"; readonly configuration: AdmissionConfiguration }
  /** Not read: refused (403) or absent; the callers infer instead, and say so. */
  | { readonly kind: "inferred"; readonly why: string }
  /** This connection cannot ask (an in-memory cluster): nothing to say. */
  | { readonly kind: "not-asked" };

/** The switch as the configuration says it; "inferred" (with why) when it cannot be read. */
export function switchOf(configuration: AdmissionConfiguration): FourEyesSwitch {
  if (!configuration.found) return { kind: "inferred", why: `no mutatingwebhookconfiguration ${configuration.name} (the operator is not installed, or under another name)` };
  const present = WRITER_ENTRIES.filter((w) => configuration.webhookNames.includes(w));
  return { kind: present.length === WRITER_ENTRIES.length ? "on" : "off", configuration };
}

/** The one read, tolerant: a refusal is a section not shown (inferred), never the command's failure. */
export async function readAdmission(c: Connection): Promise<AdmissionConfiguration | { readonly refused: string } | undefined> {
  if (!c.inspector) return undefined;
  try {
    return await c.inspector.admissionConfiguration();
  } catch (err) {
    if (err instanceof ReadError && err.httpStatus === 403) return { refused: `may not get mutatingwebhookconfigurations (${err.message})` };
    throw err;
  }
}

export async function readFourEyesSwitch(c: Connection): Promise<FourEyesSwitch> {
  const read = await readAdmission(c);
  if (read === undefined) return { kind: "not-asked" };
  return "refused" in read ? { kind: "inferred", why: read.refused } : switchOf(read);
}

/** One line: "Four-eyes: on (…)", "off (…)", or "inferred from annotations (…)"; none when not asked. */
export function switchLine(s: FourEyesSwitch): string | undefined {
  if (s.kind === "not-asked") return undefined;
  if (s.kind === "inferred") return `Four-eyes:         inferred from the objects' annotations, not read: ${s.why}`;
  const how = s.kind === "on" ? "has" : "lacks";
  return `Four-eyes:         ${s.kind} (${DISTINCT_APPROVER_SWITCH}: ${s.configuration.name} ${how} ${WRITER_ENTRIES.join(" and ")})`;
}
