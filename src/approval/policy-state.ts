// What the bound approval policies say about one schema now, for `status` and `inbox`: how many
// endorsements its current plan has and needs (read from the quorum policy's own variables, so the
// count is the one the API server makes: the approver, the last spec writer and duplicates never
// count), and whether the time policies (windows, freezes) would admit an approval now, and if
// not, when they next would. Both come from evaluating the served CEL; nothing is inferred from the
// flags that rendered it.
import { PTAH_API_VERSION, PTAH_GROUP, PTAH_VERSION } from "../model/api.ts";
import { KINDS } from "../model/parse.ts";
import type { Cel } from "./policy-cel-env.ts";
import { judge, variablesFor, type AdmissionRequest } from "./policy-judge.ts";
import { applicable, type PolicySet, type ServedPolicy } from "./policy-set.ts";

export interface Endorsement {
  /** The usernames the policy counts, in order. */
  readonly counted: readonly string[];
  readonly needed: number;
  /** Whether the policy finds the current plan risky (otherwise no endorsement is needed). */
  readonly risky: boolean;
}

/** The approval create that stands for "an approval of this schema now, by nobody in particular". */
export function probeRequest(o: {
  namespace: string;
  schema: Readonly<Record<string, unknown>>;
  schemas: readonly Readonly<Record<string, unknown>>[];
  at: Date;
}): AdmissionRequest {
  const meta = (o.schema.metadata ?? {}) as { name?: string; uid?: string };
  return {
    group: PTAH_GROUP,
    version: PTAH_VERSION,
    resource: KINDS.PtahSchemaApproval.plural,
    kind: "PtahSchemaApproval",
    operation: "CREATE",
    namespace: o.namespace,
    namespaceLabels: undefined,
    object: { apiVersion: PTAH_API_VERSION, kind: "PtahSchemaApproval", metadata: { name: "" }, spec: { schemaRef: { name: meta.name ?? "", uid: meta.uid ?? "" } } },
    user: { username: "", groups: [] },
    at: o.at,
    params: o.schemas,
  };
}

/** The quorum's count for the schema, or undefined when no bound quorum policy applies (or its variables are not the renderer's). */
export function endorsementOf(cel: Cel, set: PolicySet, req: AdmissionRequest): Endorsement | undefined {
  const quorum = { ...set, policies: set.policies.filter((p) => p.part === "quorum") };
  const { pairs } = applicable(quorum, req);
  for (const pair of pairs) {
    const short = (Array.isArray(pair.policy.spec.variables) ? (pair.policy.spec.variables as { name?: unknown; expression?: unknown }[]) : []).find((v) => v.name === "short");
    const needed = typeof short?.expression === "string" ? /size\(variables\.counted\)\s*<\s*(\d+)/u.exec(short.expression)?.[1] : undefined;
    if (needed === undefined) continue;
    try {
      const vars = variablesFor(
        cel,
        pair,
        req,
        req.params.find((p) => (p.metadata as { name?: unknown } | undefined)?.name === (req.object.spec as { schemaRef?: { name?: string } }).schemaRef?.name) ?? null,
      );
      const counted = vars.counted;
      const risky = vars.risky;
      if (!Array.isArray(counted) || typeof risky !== "boolean") continue;
      return { counted: counted.filter((u): u is string => typeof u === "string"), needed: Number(needed), risky };
    } catch {
      continue;
    }
  }
  return undefined;
}

export interface WindowState {
  readonly open: boolean;
  /** When it next changes (opens if closed, closes if open), within the horizon; undefined: not within it. */
  readonly change: Date | undefined;
  /** The zone the first time policy names, for printing the instant; UTC when none is named. */
  readonly zone: string;
}

const MINUTE = 60_000;
const STEP = 5;
/** How far ahead a change is looked for: a week's windows and a day more. */
export const HORIZON_MINUTES = 8 * 24 * 60;

/** The time policies' verdict now and when it next changes, or undefined when no time policy applies. */
export function windowOf(cel: Cel, set: PolicySet, req: AdmissionRequest): WindowState | undefined {
  const timed = { ...set, policies: set.policies.filter((p) => p.part === "window" || p.part === "freeze") };
  const pairs = applicable(timed, req).pairs;
  if (pairs.length === 0) return undefined;
  const openAt = (at: Date) => judge(cel, timed, { ...req, at }).kind === "admitted";
  const open = openAt(req.at);
  // Windows and freezes change on whole minutes of their zone: the verdict is looked at every
  // STEP minutes, and where it differs, the minutes before are searched for the first that does
  // (a window shorter than STEP minutes can be passed over: docs/policy.md says so).
  const first = Math.floor(req.at.getTime() / MINUTE) * MINUTE;
  const at = (i: number) => new Date(first + i * MINUTE);
  let change: Date | undefined;
  for (let i = STEP; i <= HORIZON_MINUTES && change === undefined; i += STEP) {
    if (openAt(at(i)) === open) continue;
    for (let j = i - STEP + 1; j <= i; j++) {
      if (openAt(at(j)) !== open) {
        change = at(j);
        break;
      }
    }
  }
  return { open, change, zone: zoneOf(pairs.map((p) => p.policy)) };
}

/** The zone the first of these policies reads its fields in (a window's before a freeze's, as rendered). */
function zoneOf(policies: readonly ServedPolicy[]): string {
  for (const p of [...policies].sort((a, b) => (a.part === b.part ? 0 : a.part === "window" ? -1 : 1))) {
    const m = /\.get(?:Hours|FullYear)\('([A-Za-z][A-Za-z0-9_+/-]*)'\)/u.exec(JSON.stringify(p.spec.variables ?? []));
    if (m) return m[1]!;
  }
  return "UTC";
}
