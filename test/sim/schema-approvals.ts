// The PtahSchema controller, approvals: while a plan waits, the database must still be the state
// it was computed from (read from the catalog); the oldest matching stamped approval is reserved
// (status.plan.approval + Event ApprovalAccepted), re-validated on the next pass (else
// ApprovalRevoked) and dispatched: approval Accepted/Stale/Consumed in one write. Approvals that
// match nothing are retired as Stale, duplicates as SupersededApproval.
import { Conditions, emitEvent, heldIn, isCond } from "./common.ts";
import { resourcePath, type Obj } from "./kube.ts";
import { MSG, SchemaPhases, type Step } from "./schema-phases.ts";
import { modelFingerprint } from "./catalog.ts";

export abstract class SchemaApprovals extends SchemaPhases {
  protected async listApprovals(s: Obj): Promise<Obj[]> {
    const all = await this.kube.list(resourcePath("ptahschemaapprovals", s.metadata.namespace!));
    return all
      .filter((a) => a.spec?.schemaRef?.name === s.metadata.name)
      .sort((a, b) => String(a.metadata.creationTimestamp).localeCompare(String(b.metadata.creationTimestamp)) || a.metadata.name.localeCompare(b.metadata.name));
  }

  protected static matches(a: Obj, s: Obj, plan: Record<string, any>): boolean {
    return a.spec?.schemaRef?.uid === s.metadata.uid && a.spec?.planRef?.name === plan.name && a.spec?.planRef?.uid === plan.uid && a.spec?.planFingerprint === plan.fingerprint;
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

  protected async awaitApproval(s: Obj, c: Conditions): Promise<Step> {
    const ns = s.metadata.namespace!;
    const plan = s.status.plan;
    if (!plan?.name) {
      await this.write(s, { phase: "Observing", activeOperation: this.operation(s, "Observe") }, c);
      return this.stepMs;
    }
    // Currency while waiting: the database must still be the state the plan was computed from.
    const { model } = await this.survey(s);
    if (modelFingerprint(model) !== plan.actualStateFingerprint) {
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
      if (!a || a.metadata.deletionTimestamp || isCond(a, "Stale", "True") || !SchemaApprovals.matches(a, s, plan)) {
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
      const match = SchemaApprovals.matches(a, s, plan);
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
    // Lab knob (common.ts): held in AwaitingApproval, nothing is reserved.
    if (candidate && !heldIn(s, "AwaitingApproval")) {
      const approval = { name: candidate.metadata.name, uid: candidate.metadata.uid, approver: candidate.spec.approver, approvedAt: candidate.spec.approvedAt };
      await this.write(s, { plan: { ...plan, approval } }, c);
      this.log(`ptahschema ${ns}/${s.metadata.name}: reserved approval ${candidate.metadata.name} by ${candidate.spec.approver.username}`);
      await this.event(s, "Normal", "ApprovalAccepted", "An authenticated approval was accepted for the current immutable plan");
      return this.stepMs;
    }
    return staleMarked ? this.stepMs : undefined;
  }

  /** Claims the Apply and consumes the approval at the dispatch boundary (one write on the approval). */
  protected async dispatch(s: Obj, c: Conditions, approval: Obj | undefined): Promise<Step> {
    const ns = s.metadata.namespace!;
    c.set(
      "Applying",
      "True",
      approval ? "ApprovedPlan" : "ApplyPending",
      approval ? "The exact approved plan is applying" : "The plan is applied without approval, as the policy allows",
    );
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
}
