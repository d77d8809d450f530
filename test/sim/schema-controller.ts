// The PtahSchema side of the operator (operator-api §3.1, §3.2, §3.4, §4.3), one phase per
// reconcile, paced by the queue: Pending → Resolving → Verifying → Observing → Planning →
// AwaitingApproval (or Blocked / ReadyToApply / InSync) → reserve a matching approval
// (status.plan.approval + Event ApprovalAccepted) → dispatch it (approval Accepted/Stale/
// Consumed in one write) → Applying → VerifyingConvergence → InSync with status.applied, and
// only then the consumed approval is retired as Stale/PlanNoLongerCurrent ("consumed and
// already stale"). A new generation discards the plan (InputsChanged) and starts again.
// Level-triggered: every decision is made from the live object, so a restart resumes anywhere.
import { randomUUID } from "node:crypto";
import { coordinationDigest, canonicalEngine, engineDisplay, policyFingerprint, readVerificationPolicy, targetIdentityDigest } from "./binding.ts";
import { diff, execute, modelFingerprint, resolveSchema, sha256, type Statement } from "./catalog.ts";
import { Conditions, KindController, MANAGER, conditionOf, emitEvent, executionBindingStatus, isCond, nowISO, randomHex } from "./common.ts";
import { readDatabase, writeDatabase } from "./database.ts";
import { resourcePath, type Kube, type Obj } from "./kube.ts";
import { currentPlanStatus, publishLiveSchemaPlan, readPlanStatements } from "./plans.ts";

const MSG = {
  noLongerMatches: "The approved plan no longer matches the current database state",
  doesNotMatch: "The approval does not match the current immutable plan",
  superseded: "Another approval already reserves this exact immutable plan",
  destructive:
    "Plan contains destructive changes and policy disallows them; read them with kubectl ptah plan, then either narrow the desired schema or set spec.policy.allowDestructive",
};

type Step = number | undefined;

export class SchemaController extends KindController {
  constructor(kube: Kube, log: (m: string) => void, stepMs: number) {
    super("ptahschemas", "PtahSchema", kube, log, stepMs);
  }

  private operation(s: Obj, type: string): Record<string, unknown> {
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

  async reconcile(ns: string, name: string): Promise<Step> {
    const s = await this.kube.get(this.path(ns, name));
    if (!s || s.metadata.deletionTimestamp) return undefined;
    s.kind ??= "PtahSchema";
    const st = s.status ?? {};
    const c = new Conditions(st.conditions, s.metadata.generation);
    if (s.spec?.suspend) {
      if (st.phase === "Suspended" && st.observedGeneration === s.metadata.generation) return undefined;
      c.set("Suspended", "True", "Requested", "spec.suspend is true; nothing is resolved, planned or applied");
      c.set("Ready", "False", "Suspended", "Reconciliation is suspended");
      await this.write(s, { phase: "Suspended", activeOperation: null }, c);
      return undefined;
    }
    if (st.observedGeneration !== s.metadata.generation) return this.restart(s, c);
    switch (st.phase) {
      case undefined:
      case "Pending":
      case "Suspended":
        return this.begin(s, c);
      case "Resolving":
        return this.resolve(s, c);
      case "Verifying":
        return this.verify(s, c);
      case "Observing":
        return this.observe(s, c);
      case "Planning":
        return this.plan(s, c);
      case "AwaitingApproval":
        return this.awaitApproval(s, c);
      case "ReadyToApply":
        return this.dispatch(s, c, undefined);
      case "Applying":
        return this.apply(s, c);
      case "VerifyingConvergence":
        return this.verifyConvergence(s, c);
      default:
        // InSync, Blocked, Failed: nothing changes until an input does (a new generation).
        return undefined;
    }
  }

  /** A new generation: discard in-flight work and the plan, retire its approval, start at Resolve. */
  private async restart(s: Obj, c: Conditions): Promise<Step> {
    const st = s.status ?? {};
    const hadState = st.observedGeneration !== undefined;
    const reserved = st.plan?.approval ?? st.pendingObservation?.plan?.approval;
    if (reserved?.name) await this.markApprovalStale(s.metadata.namespace!, reserved.name, reserved.uid, "PlanNoLongerCurrent", MSG.noLongerMatches);
    c.set("Suspended", "False", "Active", "Reconciliation is active");
    if (hadState) {
      c.set("Ready", "False", "InputsChanged", "Operation result was discarded because desired inputs changed");
      if (st.plan) c.set("PlanReady", "False", "InputsChanged", `desired inputs changed (generation ${s.metadata.generation}); the plan ${st.plan.name} was discarded`);
      if (conditionOf(s, "InSync")) c.set("InSync", "False", "DesiredStateChanged", "New desired inputs arrived after the last convergence proof");
      if (conditionOf(s, "ApprovalRequired")) c.set("ApprovalRequired", "False", "InputsChanged", "No plan is current, so nothing can be approved yet");
    } else {
      c.set("Ready", "False", "Pending", "Reconciliation has started");
    }
    await this.write(s, { phase: "Pending", plan: null, activeOperation: null, pendingObservation: null, executionBinding: executionBindingStatus() }, c);
    if (st.plan?.name) await this.event(s, "Warning", "PlanStale", "The immutable plan became stale and will not be applied");
    return this.stepMs;
  }

  private async begin(s: Obj, c: Conditions): Promise<Step> {
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

  private async fail(s: Obj, c: Conditions, type: string, reason: string, message: string): Promise<Step> {
    c.set("ReconciliationFailed", "True", "OperationFailed", message);
    c.set("Ready", "False", reason, message);
    await this.write(s, { phase: "Failed", activeOperation: null }, c);
    await this.event(s, "Warning", "OperationFailed", `${type} operation failed: ${message}`);
    return undefined;
  }

  private async resolve(s: Obj, c: Conditions): Promise<Step> {
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

  private async verify(s: Obj, c: Conditions): Promise<Step> {
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

  /** Reads the database and plans desired vs actual (no writes). */
  private async survey(s: Obj) {
    const ns = s.metadata.namespace!;
    const art = resolveSchema(String(s.spec.desired.ociRef));
    if ("error" in art) throw new Error(art.error);
    const db = await readDatabase(this.kube, ns, s.metadata.name);
    const result = diff(db.model, art.model, s.spec?.policy?.protectedTables ?? []);
    return { art, db, ...result };
  }

  private targetStatus(s: Obj, statements: Statement[]): Record<string, unknown> {
    const categories = new Map<string, { count: number; severity: string }>();
    for (const st of statements) {
      const cat = /^CREATE TABLE/.test(st.sql) ? "tables_added" : /ADD COLUMN/.test(st.sql) ? "columns_added" : /DROP COLUMN/.test(st.sql) ? "columns_removed" : "tables_removed";
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

  private async observe(s: Obj, c: Conditions): Promise<Step> {
    const ns = s.metadata.namespace!;
    const { db, statements } = await this.survey(s);
    // The database exists from the first observation on (an empty one reads as "no relations").
    if (!db.log && db.model.tables.length === 0) await writeDatabase(this.kube, ns, s.metadata.name, db);
    c.set("DatabaseReachable", "True", "Observed", "The database was observed");
    if (statements.length > 0) c.set("DriftDetected", "True", "ScopedChanges", "The managed scope differs from the desired schema");
    else c.set("DriftDetected", "False", "ScopedConverged", "The managed scope has no changes");
    c.set("Ready", "False", "ScopedPlanPending", "Scoped planning is pending");
    await this.write(s, { phase: "Planning", target: this.targetStatus(s, statements), activeOperation: this.operation(s, "Plan") }, c);
    return this.stepMs;
  }

  private async plan(s: Obj, c: Conditions): Promise<Step> {
    const { art, db, statements, touchedProtected } = await this.survey(s);
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
    const plan = await publishLiveSchemaPlan(this.kube, s, statements, {
      artifactDigest: art.digest,
      coordinationDigest: coord,
      targetIdentityDigest: targetIdentityDigest(s),
      actualStateFingerprint: modelFingerprint(db.model),
      desiredStateFingerprint: modelFingerprint(art.model),
      policyFingerprint: policyFingerprint(s.spec.policy),
      verificationPolicyUID: source.verificationPolicyUID,
      verificationPolicyDigest: source.verificationPolicyDigest,
    });
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
      if (privileges.length > 0) c.set("ApprovalRequired", "True", "PrivilegeChanges", `The plan changes privileges (${privileges.join(", ")}); create an approval bound to the current plan fingerprint`);
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

  private async listApprovals(s: Obj): Promise<Obj[]> {
    const all = await this.kube.list(resourcePath("ptahschemaapprovals", s.metadata.namespace!));
    return all
      .filter((a) => a.spec?.schemaRef?.name === s.metadata.name)
      .sort((a, b) => String(a.metadata.creationTimestamp).localeCompare(String(b.metadata.creationTimestamp)) || a.metadata.name.localeCompare(b.metadata.name));
  }

  private static matches(a: Obj, s: Obj, plan: Record<string, any>): boolean {
    return (
      a.spec?.schemaRef?.uid === s.metadata.uid &&
      a.spec?.planRef?.name === plan.name &&
      a.spec?.planRef?.uid === plan.uid &&
      a.spec?.planFingerprint === plan.fingerprint
    );
  }

  /** Retires an approval: Accepted=False and Stale=True with the same reason, Warning Event ApprovalStale. Never twice. */
  async markApprovalStale(ns: string, name: string, uid: string | undefined, reason: string, message: string): Promise<void> {
    const path = resourcePath("ptahschemaapprovals", ns, name);
    const a = await this.kube.get(path);
    if (!a || (uid && a.metadata.uid !== uid) || isCond(a, "Stale", "True")) return;
    const c = new Conditions(a.status?.conditions, a.metadata.generation);
    c.set("Accepted", "False", reason, message);
    c.set("Stale", "True", reason, message);
    const updated = await this.kube.mergePatch(`${path}/status`, { status: { observedGeneration: a.metadata.generation, conditions: c.list } });
    this.log(`ptahschemaapproval ${ns}/${name}: Stale=True (${reason})`);
    await emitEvent(this.kube, { ...updated, kind: "PtahSchemaApproval" }, "Warning", "ApprovalStale", message, this.log);
  }

  private async awaitApproval(s: Obj, c: Conditions): Promise<Step> {
    const ns = s.metadata.namespace!;
    const plan = s.status.plan;
    if (!plan?.name) {
      await this.write(s, { phase: "Observing", activeOperation: this.operation(s, "Observe") }, c);
      return this.stepMs;
    }
    // Currency while waiting: the database must still be the state the plan was computed from.
    const { db } = await this.survey(s);
    if (modelFingerprint(db.model) !== plan.actualStateFingerprint) {
      if (plan.approval?.name) await this.markApprovalStale(ns, plan.approval.name, plan.approval.uid, "PlanNoLongerCurrent", MSG.noLongerMatches);
      c.set("PlanReady", "False", "StaleObservation", "The database changed after the plan was computed");
      c.set("Ready", "False", "StaleObservation", "Database state must be observed again before planning");
      await this.write(s, { phase: "Observing", plan: null, activeOperation: this.operation(s, "Observe") }, c);
      await this.event(s, "Warning", "PlanStale", "Database state changed while the plan was generated; observing again");
      return this.stepMs;
    }
    const approvals = await this.listApprovals(s);
    if (plan.approval?.name) {
      const a = approvals.find((x) => x.metadata.uid === plan.approval.uid);
      if (!a || a.metadata.deletionTimestamp || isCond(a, "Stale", "True") || !SchemaController.matches(a, s, plan)) {
        c.set("ApprovalRequired", "True", "ApprovalRevoked", "The recorded approval is missing, replaced, or no longer matches the current plan");
        c.set("Applying", "False", "ApprovalRevoked", "No Apply Job was started with the invalid approval");
        c.set("Ready", "False", "AwaitingApproval", "The current plan requires a new approval");
        await this.write(s, { plan: { ...plan, approval: null } }, c);
        await this.event(s, "Warning", "ApprovalRevoked", "The recorded approval became invalid before the Apply Job was created");
        return this.stepMs;
      }
      return this.dispatch(s, c, a);
    }
    let staleMarked = false;
    let candidate: Obj | undefined;
    for (const a of approvals) {
      if (a.metadata.deletionTimestamp || isCond(a, "Stale", "True")) continue;
      const match = SchemaController.matches(a, s, plan);
      if (!match || isCond(a, "Consumed", "True")) {
        if (!match && !staleMarked) {
          await this.markApprovalStale(ns, a.metadata.name, a.metadata.uid, "PlanNoLongerCurrent", MSG.doesNotMatch);
          staleMarked = true;
        }
        continue;
      }
      if (!a.spec?.approver?.username || !a.spec?.mutationRequestUID) continue;
      if (!candidate) candidate = a;
      else await this.markApprovalStale(ns, a.metadata.name, a.metadata.uid, "SupersededApproval", MSG.superseded);
    }
    if (candidate) {
      const approval = { name: candidate.metadata.name, uid: candidate.metadata.uid, approver: candidate.spec.approver, approvedAt: candidate.spec.approvedAt };
      await this.write(s, { plan: { ...plan, approval } }, c);
      this.log(`ptahschema ${ns}/${s.metadata.name}: reserved approval ${candidate.metadata.name} by ${candidate.spec.approver.username}`);
      await this.event(s, "Normal", "ApprovalAccepted", "An authenticated approval was accepted for the current immutable plan");
      return this.stepMs;
    }
    return staleMarked ? this.stepMs : undefined;
  }

  /** Claims the Apply and consumes the approval at the dispatch boundary (one write on the approval). */
  private async dispatch(s: Obj, c: Conditions, approval: Obj | undefined): Promise<Step> {
    const ns = s.metadata.namespace!;
    c.set("Applying", "True", approval ? "ApprovedPlan" : "ApplyPending", approval ? "The exact approved plan is applying" : "The plan is applied without approval, as the policy allows");
    if (approval) c.set("ApprovalRequired", "False", "Satisfied", "The plan's approval requirements are satisfied");
    c.set("Ready", "False", approval ? "ApprovedPlan" : "ApplyPending", "The current plan is being applied");
    await this.write(s, { phase: "Applying", activeOperation: this.operation(s, "Apply") }, c);
    if (approval) {
      const ac = new Conditions(approval.status?.conditions, approval.metadata.generation);
      ac.set("Accepted", "True", "CurrentPlan", "The approval exactly matches the current immutable plan");
      ac.set("Stale", "False", "CurrentPlan", "The approved plan is current");
      ac.set("Consumed", "True", "DispatchCommitted", "The exact plan was committed to one Apply Job dispatch");
      await this.kube.mergePatch(`${resourcePath("ptahschemaapprovals", ns, approval.metadata.name)}/status`, {
        status: { observedGeneration: approval.metadata.generation, conditions: ac.list },
      });
      this.log(`ptahschemaapproval ${ns}/${approval.metadata.name}: Consumed=True (DispatchCommitted)`);
    }
    await this.event(s, "Normal", "OperationStarted", "Apply operation started");
    return this.stepMs * 2;
  }

  /** The Apply Job: runs the stored plan's statements against the simulated database. */
  private async apply(s: Obj, c: Conditions): Promise<Step> {
    const ns = s.metadata.namespace!;
    const plan = s.status.plan;
    const op = s.status.activeOperation ?? this.operation(s, "Apply");
    const db = await readDatabase(this.kube, ns, s.metadata.name);
    if (!plan?.name || modelFingerprint(db.model) !== plan.actualStateFingerprint) {
      c.set("Applying", "False", "Stale", "The plan no longer describes the database; nothing was applied");
      c.set("Ready", "False", "StalePlan", "The plan became stale before Apply");
      if (plan?.approval?.name) await this.markApprovalStale(ns, plan.approval.name, plan.approval.uid, "PlanNoLongerCurrent", MSG.noLongerMatches);
      await this.write(s, { phase: "Observing", plan: null, activeOperation: this.operation(s, "Observe") }, c);
      await this.event(s, "Warning", "PlanStale", "The immutable plan became stale and will not be applied");
      return this.stepMs;
    }
    const statements = await readPlanStatements(this.kube, ns, plan.name, plan.uid);
    const model = structuredClone(db.model);
    try {
      for (const st of statements) execute(model, st.sql);
    } catch (err) {
      c.set("Applying", "False", "OperationFailed", `Apply failed: ${(err as Error).message}`);
      return this.fail(s, c, "Apply", "OperationFailed", `Apply failed: ${(err as Error).message}`);
    }
    const who = plan.approval?.approver?.username ? `approved by ${plan.approval.approver.username} (${plan.approval.name})` : "applied without approval (policy Always)";
    db.model = model;
    db.log += `-- ${nowISO()} plan ${plan.name} ${plan.fingerprint}, ${who}\n${statements.map((x) => `${x.sql};\n`).join("")}`;
    await writeDatabase(this.kube, ns, s.metadata.name, db);
    c.set("Applying", "False", "JobCompleted", "Apply Job completed; convergence observation is pending");
    c.set("Ready", "False", "VerifyingConvergence", "Apply completion has not yet been independently observed");
    await this.write(
      s,
      {
        phase: "VerifyingConvergence",
        activeOperation: null,
        pendingObservation: { outcome: "ApplySucceeded", applyOperationID: op.id, applyJobName: op.jobName, applyJobUID: op.jobUID, observeAfter: nowISO(), plan },
      },
      c,
    );
    await this.event(s, "Normal", "OperationCompleted", "Apply operation completed");
    return this.stepMs;
  }

  private async verifyConvergence(s: Obj, c: Conditions): Promise<Step> {
    const { statements } = await this.survey(s);
    if (statements.length > 0) {
      c.set("InSync", "False", "ScopedChanges", "The managed scope still differs from the desired schema after Apply");
      await this.write(s, { phase: "Observing", pendingObservation: null, plan: null, activeOperation: this.operation(s, "Observe") }, c);
      return this.stepMs;
    }
    const plan = s.status.pendingObservation?.plan ?? s.status.plan;
    return this.inSync(s, c, plan);
  }

  /** Converged. After an Apply: status.applied, and the consumed approval is retired first. */
  private async inSync(s: Obj, c: Conditions, applied: Record<string, any> | undefined): Promise<Step> {
    const ns = s.metadata.namespace!;
    if (applied?.approval?.name) {
      // The approval described a plan against the database before the Apply; that state is gone.
      await this.markApprovalStale(ns, applied.approval.name, applied.approval.uid, "PlanNoLongerCurrent", MSG.noLongerMatches);
    }
    c.set("DatabaseReachable", "True", "Observed", "The database was observed");
    c.set("DriftDetected", "False", "ScopedConverged", "The managed scope has no changes");
    c.set("PlanReady", "False", "NoChanges", "Scoped planning produced no statements");
    c.set("ApprovalRequired", "False", "NotRequired", "No plan is waiting, so no approval is required");
    c.set("InSync", "True", "ScopedConverged", "Independent read-only planning proved the managed scope converged");
    c.set("Ready", "True", "InSync", "The database matches the desired schema");
    c.set("ReconciliationFailed", "False", "Succeeded", "The latest operation succeeded");
    const status: Record<string, unknown> = {
      phase: "InSync",
      plan: null,
      pendingObservation: null,
      activeOperation: null,
      target: this.targetStatus(s, []),
      lastSuccessfulReconciliation: nowISO(),
    };
    if (applied) {
      status.applied = {
        artifactDigest: applied.artifactDigest,
        planRef: { name: applied.name, uid: applied.uid },
        planFingerprint: applied.fingerprint,
        coordinationDigest: applied.coordinationDigest,
        targetIdentityDigest: applied.targetIdentityDigest,
        executionBindingID: applied.executionBindingID,
        controllerImage: applied.controllerImage,
        controllerRevision: applied.controllerRevision,
        controllerStateVersion: applied.controllerStateVersion,
        ptahVersion: applied.ptahVersion,
        executorImage: applied.executorImage,
        runnerImage: applied.runnerImage,
        runnerProtocolVersion: applied.runnerProtocolVersion,
        dispatchedBy: { controllerImage: MANAGER.controllerImage, controllerRevision: MANAGER.controllerRevision, runnerImage: MANAGER.runnerImage },
        completedAt: nowISO(),
      };
    }
    await this.write(s, status, c);
    return undefined;
  }
}
