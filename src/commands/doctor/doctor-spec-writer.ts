// doctor's "spec writers" check (four-eyes): is the operator's spec-writer webhook
// stamping? Yes when a mutating webhook handles CREATE and UPDATE of ptahschemas and
// ptahmigrations, or when a schema or migration in the namespace records its last spec writer.
// Neither is a problem: upstream installs that webhook only while approvals.requireDistinctApprover
// is on, and then nothing refuses a self-approval; `approve` then has no writer to compare with.
import { PTAH_GROUP } from "../../model/api.ts";
import { DISTINCT_APPROVER_SWITCH, LAST_SPEC_WRITER_USERNAME } from "../../model/spec-writer.ts";
import type { Outcome } from "./doctor-connection.ts";
import type { WebhookFacts } from "./doctor-operator.ts";
import { ok, skipped, type Check } from "./doctor-report.ts";

const NAME = "spec writers";
const STAMPED = ["ptahschemas", "ptahmigrations"] as const;

function stamps(w: WebhookFacts, resource: string): boolean {
  return w.rules.some(
    (r) =>
      (r.groups.includes(PTAH_GROUP) || r.groups.includes("*")) &&
      (r.resources.includes(resource) || r.resources.includes("*")) &&
      ["CREATE", "UPDATE"].every((op) => r.operations.includes(op) || r.operations.includes("*")),
  );
}

/** The mutating webhooks that stamp the two kinds, as "name (configuration)"; [] unless both kinds are covered. */
export function specWriterWebhooks(hooks: readonly WebhookFacts[]): string[] {
  if (!STAMPED.every((r) => hooks.some((w) => stamps(w, r)))) return [];
  return hooks.filter((w) => STAMPED.some((r) => stamps(w, r))).map((w) => `${w.name} (${w.configuration})`);
}

/** How many schemas and migrations the namespace has, and how many record a writer. */
export interface StampedFacts {
  readonly total: number;
  readonly stamped: number;
}

export function specWriterCheck(namespace: string, mutating: Outcome<readonly WebhookFacts[]> | undefined, objects: Outcome<StampedFacts> | undefined): Check {
  const hooks = mutating?.kind === "value" ? specWriterWebhooks(mutating.value) : [];
  if (hooks.length > 0) return ok("Operator", NAME, `stamped on every create and spec change: ${hooks.join(", ")}`);
  if (objects?.kind === "value" && objects.value.stamped > 0) {
    return ok("Operator", NAME, `stamped: ${objects.value.stamped} of ${objects.value.total} schemas and migrations in ${namespace} record a last spec writer`);
  }
  // A list that fails is not about four-eyes (a missing CRD is the kinds check's problem).
  if (objects?.kind === "error") return skipped("Operator", NAME, `the schemas and migrations in ${namespace} could not be listed: ${objects.message}`);
  if (mutating?.kind !== "value" || objects?.kind !== "value") {
    return skipped("Operator", NAME, "the account may not list mutating webhooks or the schemas and migrations here, and none of those read records a writer");
  }
  const none =
    objects.value.total === 0
      ? `no schema or migration is in ${namespace}`
      : `none of the ${objects.value.total} schemas and migrations in ${namespace} records a last spec writer`;
  return ok("Operator", NAME, `not stamped: no mutating webhook stamps ptahschemas and ptahmigrations, and ${none}`, [
    `upstream installs that webhook only while ${DISTINCT_APPROVER_SWITCH} is on: self-approvals are not refused, and approve has no writer (${LAST_SPEC_WRITER_USERNAME}) to compare you with`,
  ]);
}
