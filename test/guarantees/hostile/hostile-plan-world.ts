// The hostile-input property's verified plans (./hostile-input.ts): plans published the
// operator's way with hostile contents, the world that holds one, and the command lines run on it.
import fc from "fast-check";
import { trimSpace } from "../../../src/plan/trim-space.ts";
import type { FakeObject } from "../../support/fake-reader.ts";
import { appliedStatus, currentPlanStatus, fakeObjectsOf, fakeUID, publishSchemaPlan, type PublishedPlan } from "../../support/publish-plan.ts";
import { nsArgs, type Invocation } from "./hostile-harness.ts";
import { dnsName, hostileString } from "./hostile-strings.ts";

// Random plans never verify, so plan, approve and the plan header are reached only through
// refusals above. Here the plans are published the operator's way (digests, chunks, fingerprint)
// with hostile SQL, reasons, severities, privilege kinds, names and versions: they verify, and
// everything the plugin prints from them is held to the same contract.

const nonEmptyHostile = hostileString.filter((x) => x !== "");
const sqlLine = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom("SELECT 1", 'CREATE TABLE "t" (id int)', "DROP TABLE x", "GRANT SELECT ON t TO r", "-- note", "'", "$$", "/*", "*/", ";", "\t") },
      { weight: 2, arbitrary: hostileString },
    ),
    { maxLength: 6 },
  )
  .map((p) => p.join(" "));
const sql = fc
  .array(sqlLine, { minLength: 1, maxLength: 5 })
  .map((lines) => lines.join("\n"))
  .filter((x) => trimSpace(x) !== "");
// What the plan contract validates stays valid (a severity from the list, a revision without C0
// controls, a named document); everything else is hostile, C1 controls and bidi included.
const severity = fc.constantFrom("safe", "warning", "destructive", "info");
const revision = hostileString
  .map((x) => x.replace(/[\u0000-\u001f\u007f]/gu, "").slice(0, 128))
  // Blank as the operator (Go's strings.TrimSpace) reads it: U+0085 is space to Go, not to JavaScript.
  .map((x) => trimSpace(x))
  .filter((x) => x !== "");
const documentName = hostileString.filter((x) => trimSpace(x) !== "");

export const hostilePlan = fc.record({
  schema: fc.oneof({ weight: 3, arbitrary: dnsName }, { weight: 1, arbitrary: documentName }),
  namespace: fc.oneof({ weight: 3, arbitrary: fc.constantFrom("app", "default") }, { weight: 1, arbitrary: nonEmptyHostile }),
  statements: fc.array(fc.record({ sql, severity, reason: hostileString }), { minLength: 1, maxLength: 5 }),
  applied: fc.option(fc.array(fc.record({ sql, severity, reason: hostileString }), { minLength: 1, maxLength: 2 }), { nil: undefined }),
  privilegeChanges: fc.array(hostileString, { maxLength: 3 }),
  documentName: fc.option(documentName, { nil: undefined }),
  exclude: fc.array(hostileString, { maxLength: 2 }),
  ptahVersion: revision,
  controllerRevision: revision,
  message: hostileString,
  reason: fc.oneof(fc.constantFrom("AwaitingApproval", "Waiting"), hostileString),
  approver: hostileString,
  approvalName: hostileString,
});

export type HostilePlan = typeof hostilePlan extends fc.Arbitrary<infer T> ? T : never;

export function planWorld(h: HostilePlan): { objects: FakeObject[]; current: PublishedPlan } {
  const uid = fakeUID(`${h.namespace}/${h.schema}`);
  const schemaRef = { name: h.schema, namespace: h.namespace, uid };
  const binding = { ptahVersion: h.ptahVersion, controllerRevision: h.controllerRevision };
  const current = publishSchemaPlan({
    schema: schemaRef,
    statements: h.statements,
    privilegeChanges: h.privilegeChanges,
    documentName: h.documentName,
    exclude: h.exclude,
    binding,
    createdAt: "2026-11-30T11:00:00Z",
  });
  const applied = h.applied ? publishSchemaPlan({ schema: schemaRef, statements: h.applied, binding, uidSeed: "applied", createdAt: "2026-11-30T10:00:00Z" }) : undefined;
  const conditions = [
    { type: "PlanReady", status: "True", reason: "Published", message: h.message, lastTransitionTime: "2026-11-30T11:00:00Z", observedGeneration: 1 },
    { type: "ApprovalRequired", status: "True", reason: "Waiting", message: h.message, lastTransitionTime: "2026-11-30T11:00:00Z", observedGeneration: 1 },
    { type: "Ready", status: "False", reason: h.reason, message: h.message, lastTransitionTime: "2026-11-30T11:00:00Z", observedGeneration: 1 },
  ];
  const schema = {
    apiVersion: "operator.ptah.run/v1alpha1",
    kind: "PtahSchema",
    metadata: { name: h.schema, namespace: h.namespace, uid, generation: 1, creationTimestamp: "2026-11-30T10:00:00Z" },
    spec: { target: { engine: "PostgreSQL" }, policy: { apply: "OnApproval" } },
    status: { observedGeneration: 1, phase: "AwaitingApproval", plan: currentPlanStatus(current), ...(applied ? { applied: appliedStatus(applied) } : {}), conditions },
  };
  const approval = {
    apiVersion: "operator.ptah.run/v1alpha1",
    kind: "PtahSchemaApproval",
    metadata: { name: h.approvalName || "a", namespace: h.namespace, uid: "approval-uid", creationTimestamp: "2026-11-30T11:30:00Z" },
    spec: {
      schemaRef: { name: h.schema, uid },
      planRef: { name: current.name, uid: (current.plan.metadata as { uid: string }).uid },
      planFingerprint: current.fingerprint,
      approver: { username: h.approver },
    },
    status: { conditions: [{ type: "Accepted", status: "True", reason: h.reason, message: h.message, lastTransitionTime: "2026-11-30T11:30:00Z" }] },
  };
  return {
    objects: [{ kind: "PtahSchema", raw: schema }, ...fakeObjectsOf(current), ...(applied ? fakeObjectsOf(applied) : []), { kind: "PtahSchemaApproval", raw: approval }],
    current,
  };
}

export function planInvocations(h: HostilePlan): Invocation[] {
  const ns = nsArgs(h.namespace);
  const name = ["--", h.schema];
  const list: Invocation[] = [
    { label: "plan SCHEMA (verified)", argv: ["plan", ...ns, ...name], expect: { kind: "text", allowTab: true } },
    { label: "plan SCHEMA --statements (verified)", argv: ["plan", ...ns, "--statements", ...name], expect: { kind: "text", allowTab: true } },
    { label: "plan SCHEMA -o sql on a terminal (verified)", argv: ["plan", ...ns, "-o", "sql", ...name], expect: { kind: "text", allowTab: true }, tty: true },
    { label: "plan SCHEMA -o sql piped (verified)", argv: ["plan", ...ns, "-o", "sql", ...name], expect: { kind: "bytes" } },
    { label: "plan SCHEMA -o json on a terminal (verified)", argv: ["plan", ...ns, "-o", "json", ...name], expect: { kind: "json" }, tty: true },
    { label: "plan SCHEMA -o json piped (verified)", argv: ["plan", ...ns, "-o", "json", ...name], expect: { kind: "bytes" } },
    { label: "plan SCHEMA -o yaml (verified)", argv: ["plan", ...ns, "-o", "yaml", ...name], expect: { kind: "yaml" } },
    { label: "plan SCHEMA --verify (verified)", argv: ["plan", ...ns, "--verify", ...name], expect: { kind: "text", report: true } },
    // Lock impact of hostile SQL: a `not analysed` row or a finding, every name sanitised, never a throw.
    { label: "plan SCHEMA --locks (verified)", argv: ["plan", ...ns, "--locks", ...name], expect: { kind: "text", allowTab: true } },
    { label: "plan SCHEMA --locks -o json (verified)", argv: ["plan", ...ns, "--locks", "-o", "json", ...name], expect: { kind: "json" }, tty: true },
    { label: "plan SCHEMA -o markdown (verified)", argv: ["plan", ...ns, "-o", "markdown", ...name], expect: { kind: "text", allowTab: true } },
    { label: "approve SCHEMA (verified)", argv: ["approve", ...ns, ...name], expect: { kind: "yaml" } },
    { label: "approve SCHEMA -o json (verified)", argv: ["approve", ...ns, "-o", "json", ...name], expect: { kind: "json" } },
    { label: "approve SCHEMA --dry-run=server (verified)", argv: ["approve", ...ns, "--dry-run=server", ...name], expect: { kind: "yaml" } },
    { label: "status SCHEMA (verified)", argv: ["status", ...ns, ...name], expect: { kind: "text" } },
    { label: "explain SCHEMA (verified)", argv: ["explain", ...ns, ...name], expect: { kind: "text" } },
    { label: "history SCHEMA (verified)", argv: ["history", ...ns, ...name], expect: { kind: "text" } },
  ];
  if (h.applied) {
    list.push(
      { label: "plan SCHEMA --applied (verified)", argv: ["plan", ...ns, "--applied", ...name], expect: { kind: "text", allowTab: true } },
      { label: "diff SCHEMA --from applied (verified)", argv: ["diff", ...ns, "--from", "applied", ...name], expect: { kind: "text" } },
      {
        label: "diff SCHEMA --from applied on a terminal (verified)",
        argv: ["diff", ...ns, "--from", "applied", "--color", "always", ...name],
        expect: { kind: "text", color: true },
        tty: true,
      },
      { label: "diff SCHEMA --stat (verified)", argv: ["diff", ...ns, "--from", "applied", "--stat", ...name], expect: { kind: "text" } },
      { label: "diff SCHEMA -o json on a terminal (verified)", argv: ["diff", ...ns, "--from", "applied", "-o", "json", ...name], expect: { kind: "json" }, tty: true },
      {
        label: "diff SCHEMA -o sql on a terminal (verified)",
        argv: ["diff", ...ns, "--from", "applied", "-o", "sql", ...name],
        expect: { kind: "text", allowTab: true },
        tty: true,
      },
    );
  }
  return list;
}

/** The views that must succeed on a verified plan (the others may refuse, e.g. a hostile explain word). */
export const MUST_PRINT = /^(plan|approve|diff)/u;
