// The PtahMigration side of the operator: Pending →
// Resolving → Verifying → Reading (history from the revision table) → Planning (a
// PtahMigrationPlan: versions and checksums, no SQL) → AwaitingApproval → the oldest valid
// PtahMigrationApproval is claimed (activeOperation.approvalRef; approval Consumed=True
// DispatchCommitted) → Applying → VerifyingHistory → InSync/HistoryMatched. An artifact whose
// tag contains "partial" ends its run Partial: status.unresolvedRun (and its annotation copy)
// block everything (Blocked/ApplyOutcomeUnknown) until a PtahMigrationRunAcknowledgment naming
// that operation settles it (acknowledgment Consumed=True RunAcknowledged, Blocked=False
// RunAcknowledged, status.resolvedRun); then the history is read again.
// This file: the phases up to a claimed approval; migration-runs.ts runs and settles.
import { coordinationDigest, canonicalEngine, policyFingerprint, readVerificationPolicy, targetIdentityDigest } from "./binding.ts";
import { resolveMigrations } from "./catalog.ts";
import { Conditions, executionBindingStatus, heldIn, isCond, nowISO } from "./common.ts";
import type { Databases } from "./database.ts";
import { resourcePath, type Kube, type Obj } from "./kube.ts";
import type { History } from "./migration-history.ts";
import { MigrationRuns, type Step } from "./migration-runs.ts";
import { publishLiveMigrationPlan } from "./plans.ts";

export { UNRESOLVED_RUN_ANNOTATION } from "./migration-runs.ts";

export class MigrationController extends MigrationRuns {
  constructor(kube: Kube, log: (m: string) => void, stepMs: number, dbs: Databases) {
    super(kube, log, stepMs, dbs);
  }

  async reconcile(ns: string, name: string): Promise<Step> {
    const m = await this.kube.get(this.path(ns, name));
    if (!m || m.metadata.deletionTimestamp) return undefined;
    m.kind ??= "PtahMigration";
    const st = m.status ?? {};
    const c = new Conditions(st.conditions, m.metadata.generation);
    await this.sweepAcknowledgments(m);
    if (m.spec?.suspend) {
      if (st.phase === "Suspended" && st.observedGeneration === m.metadata.generation) return undefined;
      c.set("Ready", "False", "Suspended", "Reconciliation is suspended");
      c.set("Progressing", "False", "Suspended", "spec.suspend is true; nothing runs");
      await this.write(m, { phase: "Suspended", activeOperation: null }, c);
      return undefined;
    }
    if (st.observedGeneration !== m.metadata.generation) {
      if (st.observedGeneration !== undefined) {
        c.set("Progressing", "False", "InputsChanged", "Operation result was discarded because desired inputs changed");
        c.set("Ready", "False", "InputsChanged", "Operation result was discarded because desired inputs changed");
      } else {
        c.set("Ready", "False", "Pending", "Reconciliation has started");
      }
      await this.write(m, { phase: "Pending", plan: null, activeOperation: null, executionBinding: executionBindingStatus() }, c);
      return this.stepMs;
    }
    // A recorded Partial/Unknown run blocks every claim until it is settled.
    if (st.unresolvedRun?.operationID && st.phase !== "Applying") return this.blockedOnRun(m, c);
    switch (st.phase) {
      case undefined:
      case "Pending":
      case "Suspended":
        return this.begin(m, c);
      case "Resolving":
        return this.resolve(m, c);
      case "Verifying":
        return this.verify(m, c);
      case "Reading":
      case "VerifyingHistory":
        return this.readAndPlan(m, c);
      case "AwaitingApproval":
        return this.awaitApproval(m, c);
      case "Applying":
        return heldIn(m, "Applying") ? undefined : this.apply(m, c);
      default:
        return undefined;
    }
  }

  protected async begin(m: Obj, c: Conditions): Promise<Step> {
    if (!canonicalEngine(m.spec?.target?.engine)) {
      const why = `Engine ${JSON.stringify(m.spec?.target?.engine ?? "")} has no implemented lifecycle`;
      c.set("Blocked", "True", "UnsupportedEngine", why);
      c.set("Ready", "False", "UnsupportedEngine", why);
      c.set("Progressing", "False", "UnsupportedEngine", why);
      await this.write(m, { phase: "Blocked", plan: null, activeOperation: null }, c);
      return undefined;
    }
    c.set("Progressing", "True", "OperationInProgress", `Resolving ${m.spec.artifact.ociRef}`);
    await this.write(m, { phase: "Resolving", activeOperation: this.operation(m, "Resolve") }, c);
    return this.stepMs;
  }

  protected async resolve(m: Obj, c: Conditions): Promise<Step> {
    const art = resolveMigrations(String(m.spec.artifact.ociRef));
    if ("error" in art) {
      c.set("Progressing", "False", "OperationFailed", art.error);
      c.set("Ready", "False", "ResolveFailed", art.error);
      await this.write(m, { phase: "Failed", activeOperation: null }, c);
      await this.event(m, "Warning", "OperationFailed", `Resolve operation failed: ${art.error}`);
      return undefined;
    }
    const artifact = { resolvedReference: `oci://${art.reference.registry}/${art.reference.repository}@${art.digest}`, digest: art.digest };
    c.set("ArtifactVerified", "Unknown", "Pending", "Resolved content is not yet verified");
    await this.write(m, { phase: "Verifying", artifact, activeOperation: this.operation(m, "Verify") }, c);
    return this.stepMs;
  }

  protected async verify(m: Obj, c: Conditions): Promise<Step> {
    const vp = await readVerificationPolicy(this.kube, m.metadata.namespace!, m.spec.artifact.verificationPolicyFrom);
    if ("error" in vp) {
      c.set("ArtifactVerified", "False", "PolicyRefused", vp.error);
      c.set("Ready", "False", "PolicyRefused", vp.error);
      c.set("Progressing", "False", "PolicyRefused", vp.error);
      await this.write(m, { phase: "Blocked", activeOperation: null }, c);
      return undefined;
    }
    c.set("ArtifactVerified", "True", "PolicySatisfied", "The artifact type and the verification policy are satisfied");
    c.set("Progressing", "True", "OperationInProgress", "Reading the revision table");
    await this.write(m, { phase: "Reading", activeOperation: this.operation(m, "History") }, c);
    return this.stepMs;
  }

  protected historyStatus(m: Obj, h: History): Record<string, unknown> {
    return {
      observedAt: nowISO(),
      contractVersion: 1,
      currentVersion: h.currentVersion,
      checkpointVersion: 0,
      appliedCount: h.appliedCount,
      pendingCount: h.pending.length,
      fingerprint: h.fingerprint,
      targetIdentityDigest: targetIdentityDigest(m),
      dirty: false,
      modifiedVersions: h.modified.length ? h.modified : null,
    };
  }

  /** Reads history back and decides: InSync, blocked history, or a plan for what is pending. */
  protected async readAndPlan(m: Obj, c: Conditions): Promise<Step> {
    const ns = m.metadata.namespace!;
    // The database is created on this first read; the revision table only by the first run.
    const { art, history } = await this.survey(m);
    const historyStatus = this.historyStatus(m, history);
    if (history.modified.length > 0 || history.ahead.length > 0) {
      const reason = history.modified.length > 0 ? "HistoryModified" : "HistoryAhead";
      const why =
        history.modified.length > 0
          ? `Applied migrations changed in the artifact: ${history.modified.join(", ")}`
          : `The database records migrations the artifact lacks: ${history.ahead.join(", ")}`;
      c.set("Blocked", "True", reason, why);
      c.set("Ready", "False", reason, why);
      c.set("Progressing", "False", reason, why);
      await this.write(m, { phase: "Blocked", history: historyStatus, plan: null, activeOperation: null }, c);
      return undefined;
    }
    if (history.pending.length === 0) {
      if (!isCond(m, "Blocked", "False")) c.set("Blocked", "False", "HistoryMatched", "The revision table and the artifact agree");
      c.set("ApprovalRequired", "False", "NotRequired", "Nothing is pending, so no approval is required");
      c.set("Progressing", "False", "HistoryMatched", "Nothing is pending");
      c.set("Ready", "True", "HistoryMatched", "The revision table and the artifact agree; nothing is pending");
      await this.write(m, { phase: "InSync", history: historyStatus, plan: null, activeOperation: null }, c);
      return undefined;
    }
    const coord = coordinationDigest(m);
    const vp = await readVerificationPolicy(this.kube, ns, m.spec.artifact.verificationPolicyFrom);
    if (typeof coord !== "string" || "error" in vp) {
      const why = typeof coord !== "string" ? coord.error : "error" in vp ? vp.error : "";
      c.set("Ready", "False", "ConfigurationError", why);
      await this.write(m, { phase: "Failed", activeOperation: null }, c);
      return undefined;
    }
    const plan = await publishLiveMigrationPlan(this.kube, m, history.pending, {
      historyFingerprint: history.fingerprint,
      currentVersion: history.currentVersion,
      artifactDigest: art.digest,
      coordinationDigest: coord,
      targetIdentityDigest: targetIdentityDigest(m),
      policyFingerprint: policyFingerprint(m.spec.policy),
      verificationPolicyUID: vp.uid,
      verificationPolicyDigest: vp.digest,
    });
    const n = history.pending.length;
    const apply = m.spec.policy?.apply ?? "OnApproval";
    if (!isCond(m, "Blocked", "False")) c.set("Blocked", "False", "MigrationsPending", "The artifact has versions the database has not applied");
    let phase: string;
    if (apply === "Never") {
      phase = "Blocked";
      c.set("ApprovalRequired", "False", "NotRequired", "The apply policy is Never, so no approval is consulted");
      c.set("Ready", "False", "ApplyDisabled", `${n} migrations are pending and the apply policy is Never`);
      c.set("Progressing", "False", "ApplyDisabled", "The apply policy is Never, so nothing runs from here");
    } else if (apply === "Always") {
      phase = "Applying";
      c.set("ApprovalRequired", "False", "NotRequired", "The apply policy is Always, so no approval is required");
      c.set("Ready", "False", "ApplyPending", `${n} migrations are planned`);
      c.set("Progressing", "True", "ApplyPending", `An Apply of ${n} planned migrations is what happens next`);
    } else {
      phase = "AwaitingApproval";
      c.set("ApprovalRequired", "True", "AwaitingApproval", `${n} planned migrations need an approval naming this plan`);
      c.set("Ready", "False", "AwaitingApproval", "The plan is waiting for the approval its policy requires");
      c.set("Progressing", "False", "AwaitingApproval", "Nothing runs until a person writes the approval");
    }
    const planRef = { name: plan.metadata.name, uid: plan.metadata.uid };
    const activeOperation = phase === "Applying" ? this.operation(m, "Apply", { planRef }) : null;
    await this.write(m, { phase, history: historyStatus, plan: planRef, activeOperation }, c);
    if (activeOperation) await this.event(m, "Normal", "OperationStarted", "Apply operation started");
    return phase === "Blocked" ? undefined : this.stepMs;
  }

  protected async awaitApproval(m: Obj, c: Conditions): Promise<Step> {
    const ns = m.metadata.namespace!;
    const planRef = m.status.plan;
    const { history } = await this.survey(m);
    if (history.fingerprint !== m.status.history?.fingerprint) {
      c.set("ApprovalRequired", "False", "PlanNoLongerCurrent", "the database's history moved after the plan was published");
      c.set("Ready", "False", "PlanNoLongerCurrent", "the database's history moved after the plan was published");
      await this.write(m, { phase: "Reading", plan: null, activeOperation: this.operation(m, "History") }, c);
      return this.stepMs;
    }
    const plan = planRef?.name ? await this.kube.get(resourcePath("ptahmigrationplans", ns, planRef.name)) : undefined;
    if (!plan || plan.metadata.uid !== planRef.uid) {
      await this.write(m, { phase: "Reading", plan: null, activeOperation: this.operation(m, "History") }, c);
      return this.stepMs;
    }
    const approvals = (await this.kube.list(resourcePath("ptahmigrationapprovals", ns)))
      .filter((a) => a.spec?.migrationRef?.name === m.metadata.name)
      .filter(
        (a) =>
          !a.metadata.deletionTimestamp &&
          a.spec?.migrationRef?.uid === m.metadata.uid &&
          a.spec?.planRef?.uid === plan.metadata.uid &&
          a.spec?.planFingerprint === plan.spec.fingerprint &&
          Boolean(a.spec?.approver?.username) &&
          Boolean(a.spec?.mutationRequestUID) &&
          !isCond(a, "Stale", "True") &&
          !isCond(a, "Consumed", "True"),
      )
      .sort((a, b) => String(a.metadata.creationTimestamp).localeCompare(String(b.metadata.creationTimestamp)) || a.metadata.name.localeCompare(b.metadata.name));
    const approval = approvals[0];
    if (!approval) return undefined;
    const n = plan.spec.migrations.length;
    c.set("ApprovalRequired", "False", "Satisfied", "The plan's approval requirements are satisfied");
    c.set("Progressing", "True", "ApprovedPlan", `Applying ${n} planned migrations`);
    c.set("Ready", "False", "ApprovedPlan", `Applying ${n} planned migrations`);
    const op = this.operation(m, "Apply", {
      planRef: { name: plan.metadata.name, uid: plan.metadata.uid },
      approvalRef: { name: approval.metadata.name, uid: approval.metadata.uid },
    });
    await this.write(m, { phase: "Applying", activeOperation: op }, c);
    const ac = new Conditions(approval.status?.conditions, approval.metadata.generation);
    ac.set("Consumed", "True", "DispatchCommitted", "The approved plan was dispatched");
    await this.kube.mergePatch(`${resourcePath("ptahmigrationapprovals", ns, approval.metadata.name)}/status`, {
      status: { observedGeneration: approval.metadata.generation, conditions: ac.list },
    });
    this.log(`ptahmigrationapproval ${ns}/${approval.metadata.name}: Consumed=True (DispatchCommitted)`);
    await this.event(m, "Normal", "OperationStarted", `Apply operation started (approved by ${approval.spec.approver.username})`);
    return this.stepMs * 2;
  }
}
