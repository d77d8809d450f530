// The PtahSchema side of the operator, one phase per
// reconcile, paced by the queue: Pending → Resolving → Verifying → Observing → Planning →
// AwaitingApproval (or Blocked / ReadyToApply / InSync) → reserve a matching approval
// (status.plan.approval + Event ApprovalAccepted) → dispatch it (approval Accepted/Stale/
// Consumed in one write) → Applying → VerifyingConvergence → InSync with status.applied, and
// only then the consumed approval is retired as Stale/PlanNoLongerCurrent ("consumed and
// already stale"). A new generation discards the plan (InputsChanged) and starts again.
// Level-triggered: every decision is made from the live object, so a restart resumes anywhere.
// This file: the reconcile switch, a new generation, the Apply (the plan's statements in one
// transaction on the real database) and convergence; schema-phases.ts plans, schema-approvals.ts
// reserves and dispatches.
import { Conditions, DISPATCHED_BY, conditionOf, executionBindingStatus, heldIn, nextReconciliationTime, nowISO } from "./common.ts";
import { modelFingerprint } from "./catalog.ts";
import type { Databases } from "./database.ts";
import type { Kube, Obj } from "./kube.ts";
import { readPlanStatements } from "./plans.ts";
import { SchemaApprovals } from "./schema-approvals.ts";
import { MSG, type Step } from "./schema-phases.ts";

export class SchemaController extends SchemaApprovals {
  constructor(kube: Kube, log: (m: string) => void, stepMs: number, dbs: Databases) {
    super(kube, log, stepMs, dbs);
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
        // Lab knob (common.ts): the Apply Job never finishes while the object is held here.
        return heldIn(s, "Applying") ? undefined : this.apply(s, c);
      case "VerifyingConvergence":
        return this.verifyConvergence(s, c);
      default:
        // InSync, Blocked, Failed: nothing changes until an input does (a new generation).
        return undefined;
    }
  }

  /** A new generation: discard in-flight work and the plan, retire its approval, start at Resolve. */
  protected async restart(s: Obj, c: Conditions): Promise<Step> {
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

  /** The Apply Job: runs the stored plan's statements against the database, in one transaction. */
  protected async apply(s: Obj, c: Conditions): Promise<Step> {
    const ns = s.metadata.namespace!;
    const plan = s.status.plan;
    const op = s.status.activeOperation ?? this.operation(s, "Apply");
    const actual = await this.dbs.readModel(ns, s.metadata.name);
    if (!plan?.name || modelFingerprint(actual) !== plan.actualStateFingerprint) {
      c.set("Applying", "False", "Stale", "The plan no longer describes the database; nothing was applied");
      c.set("Ready", "False", "StalePlan", "The plan became stale before Apply");
      if (plan?.approval?.name) await this.markApprovalStale(ns, plan.approval.name, plan.approval.uid, "PlanNoLongerCurrent", MSG.noLongerMatches);
      await this.write(s, { phase: "Observing", plan: null, activeOperation: this.operation(s, "Observe") }, c);
      await this.event(s, "Warning", "PlanStale", "The immutable plan became stale and will not be applied");
      return this.stepMs;
    }
    const statements = await readPlanStatements(this.kube, ns, plan.name, plan.uid);
    const who = plan.approval?.approver?.username ? `approved by ${plan.approval.approver.username} (${plan.approval.name})` : "applied without approval (policy Always)";
    try {
      await this.dbs.apply(
        ns,
        s.metadata.name,
        statements.map((x) => x.sql),
        [],
        `plan ${plan.name} ${plan.fingerprint}, ${who}`,
      );
    } catch (err) {
      // One transaction: nothing of the plan was committed.
      c.set("Applying", "False", "OperationFailed", `Apply failed: ${(err as Error).message}`);
      return this.fail(s, c, "Apply", "OperationFailed", `Apply failed: ${(err as Error).message}`);
    }
    this.log(`ptahschema ${ns}/${s.metadata.name}: applied ${statements.length} statements of ${plan.name} in one transaction, ${who}`);
    c.set("Applying", "False", "JobCompleted", "Apply Job completed; convergence observation is pending");
    c.set("Ready", "False", "VerifyingConvergence", "Apply completion has not yet been independently observed");
    await this.write(
      s,
      {
        phase: "VerifyingConvergence",
        activeOperation: null,
        pendingObservation: {
          outcome: "ApplySucceeded",
          applyOperationID: op.id,
          applyJobName: op.jobName,
          applyJobUID: op.jobUID,
          observeAfter: nowISO(),
          plan,
          // The manager that built the Apply Job (audit evidence; status.applied copies it).
          dispatchedBy: DISPATCHED_BY,
        },
      },
      c,
    );
    await this.event(s, "Normal", "OperationCompleted", "Apply operation completed");
    return this.stepMs;
  }

  protected async verifyConvergence(s: Obj, c: Conditions): Promise<Step> {
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
  protected async inSync(s: Obj, c: Conditions, applied: Record<string, any> | undefined): Promise<Step> {
    const ns = s.metadata.namespace!;
    // The Apply completed before its approval is retired, so its time is taken first: written after
    // the retirement, a second boundary between them made the ledger's APPLIED later than its STALE.
    const completedAt = nowISO();
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
      // Lab knob (common.ts): when the next reconciliation is due; never, without it.
      nextReconciliationTime: nextReconciliationTime(s) ?? null,
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
        dispatchedBy: s.status.pendingObservation?.dispatchedBy ?? DISPATCHED_BY,
        completedAt,
      };
    }
    await this.write(s, status, c);
    return undefined;
  }
}
