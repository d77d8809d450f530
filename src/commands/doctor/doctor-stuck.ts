// doctor's "stuck resources" row: how many schemas and migrations stopped converging, by the same
// definitions as `status --stuck` (shared/stuck.ts), counted per kind of finding, and the command
// that lists them. Read in every namespace; refused there, in doctor's own namespace (and said so);
// refused there too, the row is skipped and names the read. Stuck objects are a warning: they are
// worth a look, but not this machine's, cluster's or account's fault, so doctor still exits 0.
import { ReadError } from "../../errors.ts";
import type { PtahMigration, PtahSchema } from "../../model/kinds.ts";
import { sanitize } from "../../render/sanitize.ts";
import type { Connection } from "../command-types.ts";
import { migrationStuck, schemaStuck, type StuckKind } from "../shared/stuck.ts";
import { ok, skipped, warning, type Check } from "./doctor-report.ts";

const NAME = "stuck resources";

export type StuckFacts =
  | {
      readonly kind: "read";
      /** undefined: every namespace. */
      readonly namespace: string | undefined;
      readonly schemas: readonly PtahSchema[];
      readonly migrations: readonly PtahMigration[];
      /** Why every namespace could not be listed, when only one was. */
      readonly narrowed?: string;
    }
  | { readonly kind: "refused"; readonly message: string }
  | { readonly kind: "error"; readonly message: string };

const forbidden = (err: unknown): err is ReadError => err instanceof ReadError && err.httpStatus === 403;

async function listIn(c: Connection, namespace: string | undefined): Promise<{ schemas: PtahSchema[]; migrations: PtahMigration[] }> {
  const [s, m] = await Promise.all([c.reader.list("PtahSchema", { namespace, keepRaw: false }), c.reader.list("PtahMigration", { namespace, keepRaw: false })]);
  return { schemas: s.items.map((i) => i.object), migrations: m.items.map((i) => i.object) };
}

/** Every namespace, else doctor's own (a list refused cluster-wide is often allowed by a RoleBinding). */
export async function readStuckFacts(c: Connection): Promise<StuckFacts> {
  const fail = (err: unknown): StuckFacts => {
    const message = err instanceof Error ? err.message : String(err);
    return forbidden(err) ? { kind: "refused", message } : { kind: "error", message };
  };
  try {
    return { kind: "read", namespace: undefined, ...(await listIn(c, undefined)) };
  } catch (err) {
    if (!forbidden(err)) return fail(err);
    try {
      return { kind: "read", namespace: c.namespace, narrowed: err.message, ...(await listIn(c, c.namespace)) };
    } catch (inner) {
      return fail(inner);
    }
  }
}

/** The row's buckets, in the order upstream's guide names them; "late" is overdue by more than a deadline. */
const BUCKETS: readonly { readonly label: string; readonly kinds: readonly StuckKind[] }[] = [
  { label: "overdue", kinds: ["overdue", "late"] },
  { label: "stalled", kinds: ["stalled"] },
  { label: "lock release owed", kinds: ["lock-release-owed"] },
  { label: "unresolved run", kinds: ["unresolved-run"] },
  { label: "outcome unknown", kinds: ["outcome-unknown"] },
];

export function stuckCheck(facts: StuckFacts, now: Date): Check {
  if (facts.kind === "refused") return skipped("Operator", NAME, `may not list ptahschemas and ptahmigrations, in any namespace or this one: ${facts.message}`);
  if (facts.kind === "error") return skipped("Operator", NAME, `not read: ${facts.message}`);
  const findings = [...facts.schemas.map((s) => schemaStuck(s, now)), ...facts.migrations.map((m) => migrationStuck(m, now))].filter((f) => f.length > 0);
  const where = facts.namespace === undefined ? "in any namespace" : `in ${sanitize(facts.namespace)}`;
  const details = facts.narrowed === undefined ? [] : [`only ${sanitize(facts.namespace!)} was read: may not list them in every namespace (${facts.narrowed})`];
  const command = `kubectl ptah status ${facts.namespace === undefined ? "-A" : `-n ${sanitize(facts.namespace)}`} --stuck`;
  const total = facts.schemas.length + facts.migrations.length;
  if (findings.length === 0) return ok("Operator", NAME, `none: no schema or migration ${where} has stopped converging (${total} read)`, details);
  const counts = BUCKETS.map((b) => `${b.label} ${findings.filter((f) => f.some((x) => b.kinds.includes(x.kind))).length}`).join(", ");
  // A warning, not a problem: this setup is not at fault, and doctor's exit status stays about it.
  return warning("Operator", NAME, `${findings.length} stuck ${where} (${counts}); ${command}`, details);
}
