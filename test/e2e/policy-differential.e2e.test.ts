// The plugin's verdict on an approval equals the real API server's: for generated policies (the
// flags of `kubectl ptah policy render`), schema states, people and instants, every attempt is
// sent to the lab's kube-apiserver as a dryRun=All create through the real kubectl (lab-admin
// impersonating the person; system:masters so that RBAC never answers first) and judged by the
// plugin's evaluator (src/approval/policy-judge.ts) over the policies and schemas as served. A
// single disagreement fails: admitted against refused, or a refusal whose message is not one the
// plugin predicted. The instant is the server's clock (it stamps creationTimestamp), so the
// windows and freezes are generated around it (policy-differential-cases.ts); an attempt whose
// prediction changes between the moment before it was sent and the moment after sits on a
// boundary and is counted apart, and those may be at most a few.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCel, type Cel } from "../../src/approval/policy-cel-env.ts";
import { denialLine, judge, type Verdict } from "../../src/approval/policy-judge.ts";
import type { PolicySet } from "../../src/approval/policy-set.ts";
import { APPROVAL_POLICY_LABEL, PTAH_API_VERSION, PTAH_GROUP, PTAH_VERSION } from "../../src/model/api.ts";
import { planStatus } from "../support/builders.ts";
import { createNamespace, kubectl, kubectlJson, type KubeObject } from "../support/lab.ts";
import { annotationsOf, attemptArb, policyFlagsArb, schemaStateArb, type Attempt, type SchemaState } from "./policy-differential-cases.ts";
import { applyPolicy, kubectlAs, removePolicy } from "./policy-setup.ts";

const skip = process.env.PTAH_E2E_SKIP;
/** Policy sets and attempts per set that CI runs: 8 × 24 = 192 attempts (PTAH_POLICY_RUNS raises the sets). */
const SETS = Number(process.env.PTAH_POLICY_RUNS ?? 8);
const ATTEMPTS = 24;
const SCHEMAS = 8;
const SEED = Number(process.env.PTAH_POLICY_SEED ?? Date.now() % 2 ** 31);

let ns = "";
let cel: Cel;
let schemas: KubeObject[] = [];
const names: string[] = [];

function schemaObject(s: SchemaState): KubeObject {
  return {
    apiVersion: PTAH_API_VERSION,
    kind: "PtahSchema",
    metadata: { name: s.name, namespace: ns, annotations: annotationsOf(s) },
    spec: {
      target: { engine: "PostgreSQL", coordinationKey: s.name, urlFrom: { name: "db", key: "url" } },
      desired: { ociRef: "oci://registry.lab/schemas/demo:v1", verificationPolicyFrom: { name: "verification-policy", key: "policy.json" } },
    },
  } as KubeObject;
}

function approvalOf(a: Attempt): Record<string, unknown> {
  const plan = { name: "ptah-plan-0123456789abcdef01234567", uid: "plan-uid" };
  if ("migration" in a.target)
    return {
      apiVersion: PTAH_API_VERSION,
      kind: "PtahMigrationApproval",
      metadata: { generateName: `${a.target.migration}-` },
      spec: { migrationRef: { name: a.target.migration, uid: "migration-uid" }, planRef: plan, planFingerprint: `sha256:${"1".repeat(64)}` },
    };
  const schema = schemas[a.target.schema]!;
  const fingerprint = (schema.status as { plan: { fingerprint: string } }).plan.fingerprint;
  return {
    apiVersion: PTAH_API_VERSION,
    kind: "PtahSchemaApproval",
    metadata: { generateName: `${schema.metadata.name}-` },
    spec: {
      schemaRef: { name: schema.metadata.name, uid: schema.metadata.uid },
      planRef: plan,
      planFingerprint: fingerprint,
      approver: { username: a.user },
      approvedAt: "2026-12-06T00:00:00Z",
      mutationRequestUID: "mutation-uid",
    },
  };
}

/** The approval policies and bindings as served (the plugin's read keeps the same, see listApprovalPolicies). */
function servedSet(): PolicySet {
  const policies = kubectlJson<{ items: KubeObject[] }>(["get", "validatingadmissionpolicies", "-l", APPROVAL_POLICY_LABEL]).items;
  const bindings = kubectlJson<{ items: KubeObject[] }>(["get", "validatingadmissionpolicybindings"]).items;
  const spec = (o: KubeObject) => (o as unknown as { spec: Record<string, unknown> }).spec;
  return {
    policies: policies.map((p) => ({ name: p.metadata.name, part: p.metadata.labels?.[APPROVAL_POLICY_LABEL] ?? "", spec: spec(p) })),
    bindings: bindings
      .filter((b) => policies.some((p) => p.metadata.name === spec(b).policyName))
      .map((b) => ({ name: b.metadata.name, policyName: String(spec(b).policyName), labelled: b.metadata.labels?.[APPROVAL_POLICY_LABEL] !== undefined, spec: spec(b) })),
  };
}

function predict(set: PolicySet, a: Attempt, body: Record<string, unknown>, at: Date): Verdict {
  const schemaKind = !("migration" in a.target);
  return judge(cel, set, {
    group: PTAH_GROUP,
    version: PTAH_VERSION,
    resource: schemaKind ? "ptahschemaapprovals" : "ptahmigrationapprovals",
    kind: schemaKind ? "PtahSchemaApproval" : "PtahMigrationApproval",
    operation: "CREATE",
    namespace: ns,
    namespaceLabels: undefined,
    object: body,
    user: { username: a.user, groups: [...a.groups, "system:masters", "system:authenticated"] },
    at,
    params: schemas as unknown as Record<string, unknown>[],
  });
}

const summary = (v: Verdict) => (v.kind === "refused" ? `refused: ${v.denials.map(denialLine).join(" | ")}` : v.kind);
/** The verdict without its messages (which carry the second the approval arrived at). */
const decision = (v: Verdict) => (v.kind === "refused" ? `refused by ${v.denials.map((d) => d.policy).join(", ")}` : v.kind);

interface Outcome {
  readonly attempt: Attempt;
  readonly server: { code: number; stderr: string };
  readonly verdict: Verdict | "boundary";
  readonly agrees: boolean;
}

function attempt(set: PolicySet, a: Attempt): Outcome {
  const body = approvalOf(a);
  const before = new Date();
  const r = kubectlAs({ name: a.user, groups: [...a.groups, "system:masters"] }, ["create", "--dry-run=server", "-n", ns, "-o", "name", "-f", "-"], JSON.stringify(body));
  const after = new Date();
  const v1 = predict(set, a, body, before);
  const v2 = predict(set, a, body, after);
  if (decision(v1) !== decision(v2)) return { attempt: a, server: { code: r.code, stderr: r.stderr }, verdict: "boundary", agrees: true };
  const denied = [v1, v2].flatMap((v) => (v.kind === "refused" ? v.denials : []));
  const agrees = v1.kind === "admitted" ? r.code === 0 : v1.kind === "refused" ? r.code !== 0 && denied.some((d) => r.stderr.includes(denialLine(d))) : false;
  return { attempt: a, server: { code: r.code, stderr: r.stderr }, verdict: v1, agrees };
}

describe.skipIf(Boolean(skip))(`approval policies: the plugin's verdict equals the API server's (seed ${SEED})`, () => {
  beforeAll(async () => {
    cel = await loadCel();
    ns = createNamespace("policy-diff");
    const states = fc.sample(fc.tuple(...Array.from({ length: SCHEMAS }, (_, i) => schemaStateArb(`s${i}`))), { numRuns: 1, seed: SEED })[0]!;
    for (const s of states) {
      kubectl(["create", "-f", "-"], { input: JSON.stringify(schemaObject(s)) });
      const plan = planStatus(`ptah-plan-${s.fingerprint.slice(7, 31)}`, s.fingerprint, { destructive: s.destructive, privilegeChanges: [...s.privilegeChanges] });
      kubectl([
        "patch",
        `ptahschemas.${PTAH_GROUP}/${s.name}`,
        "-n",
        ns,
        "--subresource=status",
        "--type=merge",
        "-p",
        JSON.stringify({ status: { phase: "AwaitingApproval", plan } }),
      ]);
    }
    schemas = kubectlJson<{ items: KubeObject[] }>(["get", `ptahschemas.${PTAH_GROUP}`, "-n", ns]).items;
    expect(schemas).toHaveLength(SCHEMAS);
  }, 120_000);
  afterAll(() => {
    for (const name of names) removePolicy(name);
  });

  it(`judges ${SETS} generated policy sets × ${ATTEMPTS} attempts as the API server does`, async () => {
    const sets = fc.sample(policyFlagsArb(new Date()), { numRuns: SETS, seed: SEED });
    let boundary = 0;
    let refused = 0;
    let admitted = 0;
    for (const [i, flags] of sets.entries()) {
      const name = `diff${i}${SEED.toString(36)}`;
      names.push(name);
      applyPolicy(ns, name, flags);
      const attempts = fc.sample(attemptArb(SCHEMAS), { numRuns: ATTEMPTS, seed: SEED + i + 1 });
      // A policy takes effect a moment after it is applied, and the set before it stops a moment
      // after it is deleted: rounds repeat until every attempt agrees, and the last round counts.
      const end = Date.now() + 30_000;
      let outcomes: Outcome[];
      for (;;) {
        const set = servedSet();
        outcomes = attempts.map((a) => attempt(set, a));
        if (outcomes.every((o) => o.agrees) || Date.now() > end) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      const wrong = outcomes.filter((o) => !o.agrees);
      expect(
        wrong.map((o) => ({ flags: flags.join(" "), attempt: o.attempt, server: o.server, plugin: o.verdict === "boundary" ? o.verdict : summary(o.verdict) })),
        `policy set ${i}: ${flags.join(" ")}`,
      ).toEqual([]);
      boundary += outcomes.filter((o) => o.verdict === "boundary").length;
      refused += outcomes.filter((o) => o.verdict !== "boundary" && o.verdict.kind === "refused").length;
      admitted += outcomes.filter((o) => o.verdict !== "boundary" && o.verdict.kind === "admitted").length;
      removePolicy(name);
      names.pop();
    }
    console.log(`policy differential: seed ${SEED}, ${SETS} sets, ${refused} refused and ${admitted} admitted alike, ${boundary} on a boundary`);
    // Both answers must occur, or the comparison proves little; boundaries are rare by construction.
    expect(refused).toBeGreaterThan(0);
    expect(admitted).toBeGreaterThan(0);
    expect(boundary).toBeLessThanOrEqual(Math.ceil((SETS * ATTEMPTS) / 50));
  }, 900_000);
});
