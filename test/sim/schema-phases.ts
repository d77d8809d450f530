// The PtahSchema controller, first half: from a new generation to a published plan (Pending →
// Resolving → Verifying → Observing → Planning → AwaitingApproval, Blocked, ReadyToApply or
// InSync), reading the real database's catalog (database.ts). schema-approvals.ts reserves and
// dispatches approvals, schema-controller.ts applies and converges.
import { randomUUID } from "node:crypto";
import { coordinationDigest, canonicalEngine, engineDisplay, policyFingerprint, readVerificationPolicy, targetIdentityDigest } from "./binding.ts";
import { diff, findingCategory, modelFingerprint, resolveSchema, sha256, type Statement } from "./catalog.ts";
import { managedRowsOf } from "./catalog-rows.ts";
import { Conditions, KindController, MANAGER, nowISO, randomHex } from "./common.ts";
import type { Databases } from "./database.ts";
import type { Kube, Obj } from "./kube.ts";
import { currentPlanStatus, publishLiveSchemaPlan } from "./plans.ts";

export const MSG = {
  noLongerMatches: "The approved plan no longer matches the current database state",
  doesNotMatch: "The approval does not match the current immutable plan",
  superseded: "Another approval already reserves this exact immutable plan",
  destructive:
    "Plan contains destructive changes and policy disallows them; read them with kubectl ptah plan, then either narrow the desired schema or set spec.policy.allowDestructive",
};

export type Step = number | undefined;

export abstract class SchemaPhases extends KindController {
  protected readonly dbs: Databases;

  constructor(kube: Kube, log: (m: string) => void, stepMs: number, dbs: Databases) {
    super("ptahschemas", "PtahSchema", kube, log, stepMs);
    this.dbs = dbs;
  }

  protected abstract inSync(s: Obj, c: Conditions, applied: Record<string, any> | undefined): Promise<Step>;

  protected operation(s: Obj, type: string): Record<string, unknown> {
    return {
      type,
      id: sha256(`${s.metadata.uid}/${s.metadata.generation}/${type}/${randomHex(4)}`),
      jobName: `${s.metadata.name.slice(0, 40)}-${type.toLowerCase()}-${randomHex(3)}`,
      jobUID: randomUUID(),
      startedAt: nowISO(),
      attempt: 1,
      executionBindingID: MANAGER.executionBindingID,
    };
  }

  protected async begin(s: Obj, c: Conditions): Promise<Step> {
    const engine = canonicalEngine(s.spec?.target?.engine);
    if (!engine) {
      const why = `Engine ${JSON.stringify(s.spec?.target?.engine ?? "")} has no implemented lifecycle`;
      c.set("EngineSupported", "False", "UnsupportedEngine", why);
      c.set("DatabaseReachable", "Unknown", "UnsupportedEngine", "No database access for an unsupported engine");
      c.set("DriftDetected", "Unknown", "UnsupportedEngine", "No database access for an unsupported engine");
      c.set("InSync", "Unknown", "UnsupportedEngine", "No database access for an unsupported engine");
      c.set("PlanReady", "False", "UnsupportedEngine", "No plan is computed for an unsupported engine");
      c.set("ApprovalRequired", "False", "UnsupportedEngine", "No plan is approvable for an unsupported engine");
      c.set("Applying", "False", "UnsupportedEngine", "No Apply operation is authorized for an unsupported engine");
      c.set("Ready", "False", "UnsupportedEngine", why);
      await this.write(s, { phase: "Blocked", plan: null, activeOperation: null }, c);
      return undefined;
    }
    c.set("EngineSupported", "True", "SupportedEngine", `${engineDisplay(engine)} has an implemented lifecycle`);
    c.set("ArtifactResolved", "Unknown", "Refreshing", `Resolving ${s.spec.desired.ociRef}`);
    c.set("Ready", "False", "Refreshing", "The desired artifact is being resolved");
    await this.write(s, { phase: "Resolving", activeOperation: this.operation(s, "Resolve"), lastAttemptTime: nowISO() }, c);
    return this.stepMs;
  }

  protected async fail(s: Obj, c: Conditions, type: string, reason: string, message: string): Promise<Step> {
    c.set("ReconciliationFailed", "True", "OperationFailed", message);
    c.set("Ready", "False", reason, message);
    await this.write(s, { phase: "Failed", activeOperation: null }, c);
    await this.event(s, "Warning", "OperationFailed", `${type} operation failed: ${message}`);
    return undefined;
  }

  protected async resolve(s: Obj, c: Conditions): Promise<Step> {
    const ref = String(s.spec.desired.ociRef);
    const art = resolveSchema(ref);
    if ("error" in art) {
      c.set("ArtifactResolved", "False", "ResolveFailed", art.error);
      return this.fail(s, c, "Resolve", "ResolveFailed", art.error);
    }
    const source = {
      requestedReference: ref,
      resolvedReference: `oci://${art.reference.registry}/${art.reference.repository}@${art.digest}`,
      digest: art.digest,
      mediaType: "application/vnd.oci.image.manifest.v1+json",
      artifactType: "application/vnd.ptah.schema.v1",
      size: Buffer.byteLength(art.content),
      verified: false,
      resolvedAt: nowISO(),
    };
    c.set("ArtifactResolved", "True", "DigestPinned", `Resolved to ${art.digest}`);
    c.set("ArtifactVerified", "Unknown", "Pending", "Resolved content is not yet verified");
    c.set("Ready", "False", "Pending", "Resolved content is not yet verified");
    await this.write(s, { phase: "Verifying", source, activeOperation: this.operation(s, "Verify") }, c);
    return this.stepMs;
  }

  protected async verify(s: Obj, c: Conditions): Promise<Step> {
    const vp = await readVerificationPolicy(this.kube, s.metadata.namespace!, s.spec.desired.verificationPolicyFrom);
    if ("error" in vp) {
      c.set("ArtifactVerified", "False", "PolicyRefused", vp.error);
      c.set("PlanReady", "False", "ArtifactUnverified", "No plan is published for an unverified artifact");
      c.set("Ready", "False", "PolicyRefused", vp.error);
      await this.write(s, { phase: "Blocked", activeOperation: null }, c);
      await this.event(s, "Warning", "ArtifactVerificationRefused", vp.error);
      return undefined;
    }
    const source = { ...s.status.source, verified: true, verificationPolicyUID: vp.uid, verificationPolicyDigest: vp.digest, verifiedAt: nowISO() };
    c.set("ArtifactVerified", "True", "PolicySatisfied", "The artifact type and the verification policy are satisfied");
    c.set("DriftDetected", "Unknown", "ScopedPlanPending", "The database has not been observed yet");
    c.set("Ready", "False", "ScopedPlanPending", "The database is being observed");
    await this.write(s, { phase: "Observing", source, activeOperation: this.operation(s, "Observe") }, c);
    return this.stepMs;
  }

  /** Reads the database's catalog and plans desired vs actual (no writes). */
  protected async survey(s: Obj) {
    const art = resolveSchema(String(s.spec.desired.ociRef));
    if ("error" in art) throw new Error(art.error);
    const model = await this.dbs.readModel(s.metadata.namespace!, s.metadata.name);
    const result = diff(model, art.model, s.spec?.policy?.protectedTables ?? []);
    return { art, model, ...result };
  }

  protected targetStatus(s: Obj, statements: Statement[]): Record<string, unknown> {
    const categories = new Map<string, { count: number; severity: string }>();
    for (const st of statements) {
      const cat = findingCategory(st.sql);
      const cur = categories.get(cat) ?? { count: 0, severity: st.severity };
      categories.set(cat, { count: cur.count + 1, severity: st.severity === "destructive" ? "destructive" : cur.severity });
    }
    const coord = coordinationDigest(s);
    return {
      engine: canonicalEngine(s.spec.target.engine),
      coordinationDigest: typeof coord === "string" ? coord : undefined,
      identityDigest: targetIdentityDigest(s),
      lastObservedAt: nowISO(),
      highestDriftSeverity: statements.length === 0 ? "" : statements.some((x) => x.severity === "destructive") ? "destructive" : "safe",
      driftFindingCount: statements.length,
      driftFindings: statements.length === 0 ? null : [...categories].map(([category, v]) => ({ category, count: v.count, severity: v.severity })),
    };
  }

  protected async observe(s: Obj, c: Conditions): Promise<Step> {
    // The database is created on this first read (an empty one reads as "no relations").
    const { statements } = await this.survey(s);
    c.set("DatabaseReachable", "True", "Observed", "The database was observed");
    if (statements.length > 0) c.set("DriftDetected", "True", "ScopedChanges", "The managed scope differs from the desired schema");
    else c.set("DriftDetected", "False", "ScopedConverged", "The managed scope has no changes");
    c.set("Ready", "False", "ScopedPlanPending", "Scoped planning is pending");
    await this.write(s, { phase: "Planning", target: this.targetStatus(s, statements), activeOperation: this.operation(s, "Plan") }, c);
    return this.stepMs;
  }

  protected async plan(s: Obj, c: Conditions): Promise<Step> {
    const { art, model, statements, touchedProtected } = await this.survey(s);
    if (touchedProtected.length > 0) {
      c.set("PlanReady", "False", "ProtectedTable", "No plan may change a table spec.policy.protectedTables fences off");
      c.set("InSync", "False", "ProtectedTable", "The artifact asks for a change to a protected table, so the managed scope cannot converge");
      c.set("Ready", "False", "ProtectedTable", "Remove the protectedTables entry to plan the change, or write the rows as a migration");
      c.set("ApprovalRequired", "False", "PolicyBlocked", "No plan is approvable while it would change a protected table");
      await this.write(s, { phase: "Blocked", plan: null, activeOperation: null }, c);
      await this.event(s, "Warning", "ProtectedTableRefused", "The plan would change a protected table; nothing was published");
      return undefined;
    }
    if (statements.length === 0) return this.inSync(s, c, undefined);
    const coord = coordinationDigest(s);
    if (typeof coord !== "string") return this.fail(s, c, "Plan", "ConfigurationError", coord.error);
    const source = s.status.source ?? {};
    const plan = await publishLiveSchemaPlan(
      this.kube,
      s,
      statements,
      {
        artifactDigest: art.digest,
        coordinationDigest: coord,
        targetIdentityDigest: targetIdentityDigest(s),
        actualStateFingerprint: modelFingerprint(model),
        desiredStateFingerprint: modelFingerprint(art.model),
        policyFingerprint: policyFingerprint(s.spec.policy),
        verificationPolicyUID: source.verificationPolicyUID,
        verificationPolicyDigest: source.verificationPolicyDigest,
      },
      managedRowsOf(statements, art.model.rows ?? []),
    );
    const planStatus = currentPlanStatus(plan);
    const policy = s.spec.policy ?? {};
    const apply = policy.apply ?? "OnApproval";
    const destructive = plan.spec.destructive === true;
    const privileges: string[] = plan.spec.privilegeChanges ?? [];
    c.set("PlanReady", "True", "Published", "Exact plan bytes are stored in immutable chunks");
    c.set("InSync", "False", "ScopedChanges", "The managed scope differs from the desired schema");
    c.remove("ReconciliationFailed");
    let phase: string;
    if (destructive && policy.allowDestructive !== true) {
      phase = "Blocked";
      c.set("ApprovalRequired", "False", "DestructiveChangesDisabled", "No plan is approvable while the policy disallows destructive changes");
      c.set("Applying", "False", "DestructiveChangesDisabled", "No Apply operation is authorized while the policy disallows destructive changes");
      c.set("Ready", "False", "DestructiveChangesDisabled", MSG.destructive);
    } else if (apply === "Never") {
      phase = "Blocked";
      c.set("ApprovalRequired", "False", "ApplyDisabled", "The apply policy is Never, so no approval is consulted");
      c.set("Applying", "False", "ApplyDisabled", "The apply policy is Never, so nothing is applied");
      c.set("Ready", "False", "ApplyDisabled", "Policy records plans but does not apply them");
    } else if (apply === "OnApproval" || destructive || privileges.length > 0) {
      phase = "AwaitingApproval";
      if (privileges.length > 0)
        c.set("ApprovalRequired", "True", "PrivilegeChanges", `The plan changes privileges (${privileges.join(", ")}); create an approval bound to the current plan fingerprint`);
      else c.set("ApprovalRequired", "True", "Waiting", "Create an approval bound to the current plan fingerprint");
      c.set("Ready", "False", "AwaitingApproval", "The current plan requires a new approval");
    } else {
      phase = "ReadyToApply";
      c.set("ApprovalRequired", "False", "NotRequired", "The apply policy is Always and the plan needs no approval");
      c.set("Ready", "False", "ApplyPending", "The plan is eligible for automatic Apply");
    }
    await this.write(s, { phase, plan: planStatus, activeOperation: null }, c);
    if (phase === "AwaitingApproval") await this.event(s, "Normal", "ApprovalRequired", "The current immutable plan requires approval");
    return phase === "Blocked" ? undefined : this.stepMs;
  }
}
