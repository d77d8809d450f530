// Fixed run data for the page tests: stale-approval.yaml as the runner would report it, with
// outputs as a lab run printed them (a fixed namespace, plan names and fingerprints), every claim
// held, and the read-only steps replayed as lab-viewer.
import path from "node:path";
import { expectationClaim, observationClaim, type ScenarioResult, type StepResult } from "../runner.ts";
import { isReadOnlyStep, loadScenario, SCENARIO_DIR, type Check } from "../scenario.ts";
import type { RanAgainst } from "./record.ts";

export const FIXED_NAMESPACE = "stale-approval-fixed01";

const OUTPUT: Record<number, { stdout?: string; stderr?: string; exit?: number }> = {
  1: { stdout: "AwaitingApproval\nsha256:a8dd54e3c35d9f9a501255a32667a0b2c6c412df17214bc8fde6f5278bcede20\n" },
  2: { stdout: "ptahschemaapproval.operator.ptah.run/storefront-v1 created\n" },
  3: {
    stdout:
      "NAME            SCHEMA       PLAN                                 APPROVER       STATE             REASON              AGE\nstorefront-v1   storefront   ptah-plan-a8dd54e3c35d9f9a501255a3   lab-approver   Consumed, stale   DispatchCommitted   1s\n",
  },
  4: {
    stdout: `ptahschemaapproval ${FIXED_NAMESPACE}/storefront-v1 is Stale (PlanNoLongerCurrent) after it was Consumed (DispatchCommitted).\n\nWhy:      Something the plan was bound to moved on: the approval no longer matches the current database state.\n`,
  },
  5: { stdout: "ptahschema.operator.ptah.run/storefront patched\n" },
  6: { stdout: "AwaitingApproval\nsha256:02799c047258f69c2671201d13487d5e0cf72de22a86a998d19f3e4e3846e229\n" },
  7: {
    stdout:
      '             Table "public.customers"\n Column |  Type  | Collation | Nullable | Default\n--------+--------+-----------+----------+---------\n id     | bigint |           | not null |\n email  | text   |           | not null |\nIndexes:\n    "customers_pkey" PRIMARY KEY, btree (id)\n',
  },
  8: {
    stdout: `Schema:         ${FIXED_NAMESPACE}/storefront\nFrom:           the plan approval storefront-v1 approved\n\n+ALTER TABLE "customers" ADD COLUMN "signed_up_at" timestamp with time zone;\n\nactual state fingerprint   the database changed since the old plan was computed\ndesired state fingerprint  the desired schema changed\n`,
  },
  9: {
    stderr:
      'Error from server (Forbidden): error when creating "STDIN": admission webhook "mapproval.operator.ptah.run" denied the request: referenced plan is no longer current for the schema\n',
    exit: 1,
  },
};

export const FIXED_RAN_AGAINST: RanAgainst = {
  kubernetes: "v1.33.13",
  plugin: "v0.1.0",
  pluginCommit: "d88dd40f118f",
  simulator: "the lab's operator simulator (test/sim), bundle sha256:3ef2e5fa84a9",
  recordedAt: "2026-12-01T11:41:23Z",
  scenarioCommit: "69fb66e2f8f1",
};

/** stale-approval's result with the outputs above; `extra` is appended to one step's stdout. */
export function fixedResult(extra: { step: number; stdout: string } | undefined = undefined): ScenarioResult {
  const scenario = loadScenario(path.join(SCENARIO_DIR, "stale-approval.yaml"));
  const checks: Check[] = [];
  const steps = scenario.steps.map((step, i): StepResult => {
    const index = i + 1;
    const o = OUTPUT[index] ?? {};
    const claims = [...(step.await ? [observationClaim(step.await)] : []), expectationClaim(step.expect), ...[step.expect.resource ?? []].flat().map(observationClaim)];
    const stepChecks = claims.map((claim): Check => ({ scenario: scenario.id, step: index, claim, held: true, detail: "held" }));
    checks.push(...stepChecks);
    const as = step.as ?? scenario.as ?? "approver";
    const readOnly = isReadOnlyStep(step, scenario.as);
    const stdout = `${o.stdout ?? ""}${extra?.step === index ? extra.stdout : ""}`;
    return {
      index,
      step,
      as,
      exit: o.exit ?? 0,
      stdout,
      stderr: o.stderr ?? "",
      durationMs: 100,
      checks: stepChecks,
      ...(readOnly ? { viewer: { claim: `${expectationClaim(step.expect)}, as lab-viewer`, exit: o.exit ?? 0, held: true, detail: "held" } } : {}),
    };
  });
  return { scenario, namespace: FIXED_NAMESPACE, steps, checks, passed: true };
}
