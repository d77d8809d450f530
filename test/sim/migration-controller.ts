// The PtahMigration side of the operator (operator-api §2.5–2.8, §3.3, §4.4): Pending →
// Resolving → Verifying → Reading (history from the revision table) → Planning (a
// PtahMigrationPlan: versions and checksums, no SQL) → AwaitingApproval → the oldest valid
// PtahMigrationApproval is claimed (activeOperation.approvalRef; approval Consumed=True
// DispatchCommitted) → Applying → VerifyingHistory → InSync/HistoryMatched. An artifact whose
// tag contains "partial" ends its run Partial: status.unresolvedRun (and its annotation copy)
// block everything (Blocked/ApplyOutcomeUnknown) until a PtahMigrationRunAcknowledgment naming
// that operation settles it (acknowledgment Consumed=True RunAcknowledged, Blocked=False
// RunAcknowledged, status.resolvedRun); then the history is read again.
import { randomUUID } from "node:crypto";
import { coordinationDigest, canonicalEngine, policyFingerprint, readVerificationPolicy, targetIdentityDigest } from "./binding.ts";
import { execute, resolveMigrations, sha256, type MigrationArtifact } from "./catalog.ts";
import { Conditions, KindController, MANAGER, digestOf, executionBindingStatus, isCond, nowISO, randomHex } from "./common.ts";
import { readDatabase, writeDatabase, type Database } from "./database.ts";
import { resourcePath, type Kube, type Obj } from "./kube.ts";
import { publishLiveMigrationPlan, type MigrationStep } from "./plans.ts";

type Step = number | undefined;

export const UNRESOLVED_RUN_ANNOTATION = "operator.ptah.run/unresolved-run";

interface History {
  currentVersion: number;
  appliedCount: number;
  pending: MigrationStep[];
  fingerprint: string;
  modified: number[];
  ahead: number[];
}

function stepsOf(art: MigrationArtifact): MigrationStep[] {
  return art.files.map((f) => ({ version: f.version, versionKey: String(f.version), description: f.description, checksum: sha256(f.sql), checkpoint: false, transactionMode: "" }));
}

function readHistory(art: MigrationArtifact, db: Database): History {
  const steps = stepsOf(art);
  const applied = new Map(db.revisions.map((r) => [r.version, r]));
  const currentVersion = db.revisions.reduce((m, r) => Math.max(m, r.version), 0);
  const known = new Set(steps.map((s) => s.version));
  const modified = steps.filter((s) => applied.has(s.version) && applied.get(s.version)!.checksum !== s.checksum).map((s) => s.version);
  const ahead = db.revisions.filter((r) => !known.has(r.version)).map((r) => r.version);
  const pending = steps.filter((s) => !applied.has(s.version));
  const fingerprint = digestOf({
    contract_version: 1,
    current_version: currentVersion,
    checkpoint_version: 0,
    total_migrations: steps.length,
    migrations: steps.map((s) => ({
      version: s.version,
      version_key: s.versionKey,
      checksum: s.checksum,
      applied_checksum: applied.get(s.version)?.checksum ?? "",
      checkpoint: false,
      state: applied.has(s.version) ? "applied" : "pending",
    })),
    dirty: false,
  });
  return { currentVersion, appliedCount: db.revisions.length, pending, fingerprint, modified, ahead };
}

export class MigrationController extends KindController {
  constructor(kube: Kube, log: (m: string) => void, stepMs: number) {
    super("ptahmigrations", "PtahMigration", kube, log, stepMs);
  }

  private operation(m: Obj, type: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    const id = sha256(`${m.metadata.uid}/${m.metadata.generation}/${type}/${randomHex(6)}`);
    return {
      type,
      id,
      inputFingerprint: sha256(`${id}/input`),
      jobName: `${m.metadata.name.slice(0, 40)}-${type.toLowerCase()}-${randomHex(3)}`,
      jobUID: randomUUID(),
      startedAt: nowISO(),
      attempt: 1,
      executionBindingID: MANAGER.executionBindingID,
      ...extra,
    };
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
        return this.apply(m, c);
      default:
        return undefined;
    }
  }

  private async begin(m: Obj, c: Conditions): Promise<Step> {
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

  private async resolve(m: Obj, c: Conditions): Promise<Step> {
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

  private async verify(m: Obj, c: Conditions): Promise<Step> {
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

  private async survey(m: Obj) {
    const art = resolveMigrations(String(m.spec.artifact.ociRef));
    if ("error" in art) throw new Error(art.error);
    const db = await readDatabase(this.kube, m.metadata.namespace!, m.metadata.name);
    return { art, db, history: readHistory(art, db) };
  }

  private historyStatus(m: Obj, h: History): Record<string, unknown> {
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
  private async readAndPlan(m: Obj, c: Conditions): Promise<Step> {
    const ns = m.metadata.namespace!;
    const { art, db, history } = await this.survey(m);
    if (!db.log && db.revisions.length === 0) await writeDatabase(this.kube, ns, m.metadata.name, db);
    const historyStatus = this.historyStatus(m, history);
    if (history.modified.length > 0 || history.ahead.length > 0) {
      const reason = history.modified.length > 0 ? "HistoryModified" : "HistoryAhead";
      const why = history.modified.length > 0 ? `Applied migrations changed in the artifact: ${history.modified.join(", ")}` : `The database records migrations the artifact lacks: ${history.ahead.join(", ")}`;
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

  private async awaitApproval(m: Obj, c: Conditions): Promise<Step> {
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
    const op = this.operation(m, "Apply", { planRef: { name: plan.metadata.name, uid: plan.metadata.uid }, approvalRef: { name: approval.metadata.name, uid: approval.metadata.uid } });
    await this.write(m, { phase: "Applying", activeOperation: op }, c);
    const ac = new Conditions(approval.status?.conditions, approval.metadata.generation);
    ac.set("Consumed", "True", "DispatchCommitted", "The approved plan was dispatched");
    await this.kube.mergePatch(`${resourcePath("ptahmigrationapprovals", ns, approval.metadata.name)}/status`, { status: { observedGeneration: approval.metadata.generation, conditions: ac.list } });
    this.log(`ptahmigrationapproval ${ns}/${approval.metadata.name}: Consumed=True (DispatchCommitted)`);
    await this.event(m, "Normal", "OperationStarted", `Apply operation started (approved by ${approval.spec.approver.username})`);
    return this.stepMs * 2;
  }

  /** The Apply Job: runs the planned versions in order, records them in the revision table. */
  private async apply(m: Obj, c: Conditions): Promise<Step> {
    const ns = m.metadata.namespace!;
    const op = m.status.activeOperation;
    const planRef = op?.planRef ?? m.status.plan;
    const plan = planRef?.name ? await this.kube.get(resourcePath("ptahmigrationplans", ns, planRef.name)) : undefined;
    const { art, db } = await this.survey(m);
    if (!op || !plan || plan.metadata.uid !== planRef.uid) {
      await this.write(m, { phase: "Reading", activeOperation: this.operation(m, "History") }, c);
      return this.stepMs;
    }
    const startedAt = op.startedAt ?? nowISO();
    const files = new Map(art.files.map((f) => [f.version, f]));
    const ran: number[] = [];
    const model = structuredClone(db.model);
    let failure: string | undefined;
    for (const step of plan.spec.migrations as MigrationStep[]) {
      const f = files.get(step.version);
      if (!f || sha256(f.sql) !== step.checksum) {
        failure = `the artifact's version ${step.version} differs from the approved sequence`;
        break;
      }
      try {
        execute(model, f.sql);
      } catch (err) {
        failure = `version ${step.version}: ${(err as Error).message}`;
        break;
      }
      db.revisions.push({ version: f.version, description: f.description, checksum: sha256(f.sql), appliedAt: nowISO() });
      db.log += `-- ${nowISO()} ${op.jobName}: version ${f.version} (${f.description})\n${f.sql};\n`;
      ran.push(f.version);
    }
    db.model = model;
    const finishedAt = nowISO();
    if (art.partial && !failure) {
      // The statements committed, but the Job's final report was lost after the last one: the
      // manager cannot tell what ran, so the run is Partial and nothing may be retried.
      db.log += `-- ${finishedAt} ${op.jobName}: the runner's report ends after version ${ran[ran.length - 2] ?? 0}; outcome Partial\n`;
      await writeDatabase(this.kube, ns, m.metadata.name, db);
      const unresolvedRun = {
        outcome: "Partial",
        operationID: op.id,
        jobName: op.jobName,
        jobUID: op.jobUID,
        planRef: { name: plan.metadata.name, uid: plan.metadata.uid },
        targetIdentityDigest: targetIdentityDigest(m),
        recordedAt: finishedAt,
        dispatchedBy: { controllerImage: MANAGER.controllerImage, controllerRevision: MANAGER.controllerRevision, runnerImage: MANAGER.runnerImage },
      };
      // The annotation copy is written before the status record (§6).
      await this.kube.mergePatch(this.path(ns, m.metadata.name), { metadata: { annotations: { [UNRESOLVED_RUN_ANNOTATION]: JSON.stringify(unresolvedRun) } } });
      const reported = ran.slice(0, -1);
      c.set("Blocked", "True", "ApplyOutcomeUnknown", "A Partial run nobody accounted for is recorded against this database; establish what it did before another Apply");
      c.set("Ready", "False", "ApplyOutcomeUnknown", "What the recorded run did is unknown until the database is read");
      c.set("Progressing", "False", "ApplyOutcomeUnknown", "The recorded run may not be retried");
      c.set("ApprovalRequired", "False", "ApplyOutcomeUnknown", "No plan is approvable while a run nobody accounted for is recorded");
      await this.write(
        m,
        {
          phase: "Blocked",
          activeOperation: null,
          plan: null,
          unresolvedRun,
          lastRun: { outcome: "Partial", jobName: op.jobName, jobUID: op.jobUID, startedAt, finishedAt, appliedVersions: reported, message: "The Job ended before it reported every migration; some statements may have committed" },
        },
        c,
      );
      await this.event(m, "Warning", "MigrationRunFinished", `Apply run ${op.jobName} finished Partial after reporting ${reported.length} of ${ran.length} migrations`);
      return undefined;
    }
    await writeDatabase(this.kube, ns, m.metadata.name, db);
    const outcome = failure ? "Failed" : "Applied";
    c.set("Progressing", "True", "OperationInProgress", "Reading the history back after the run");
    c.set("Ready", "False", failure ? "OperationFailed" : "MigrationsPending", failure ?? "The history is read back before the migration counts as in sync");
    await this.write(
      m,
      {
        phase: "VerifyingHistory",
        activeOperation: null,
        lastRun: { outcome, jobName: op.jobName, jobUID: op.jobUID, startedAt, finishedAt, appliedVersions: ran, message: failure ?? `Applied ${ran.length} migrations` },
      },
      c,
    );
    await this.event(m, failure ? "Warning" : "Normal", "MigrationRunFinished", `Apply run ${op.jobName} finished ${outcome}: ${ran.length} migrations applied`);
    return this.stepMs;
  }

  /** Blocked on an unresolved run: the only way forward is an acknowledgment naming it. */
  private async blockedOnRun(m: Obj, c: Conditions): Promise<Step> {
    const ns = m.metadata.namespace!;
    const run = m.status.unresolvedRun;
    const acks = await this.listAcknowledgments(m);
    const ack = acks.find((a) => a.spec?.operationID === run.operationID && a.spec?.acknowledgedBy?.username && a.spec?.mutationRequestUID && a.spec?.migrationRef?.uid === m.metadata.uid);
    if (!ack) {
      if (m.status.phase === "Blocked" && isCond(m, "Blocked", "True", "ApplyOutcomeUnknown")) return undefined;
      c.set("Blocked", "True", "ApplyOutcomeUnknown", `A ${run.outcome} run nobody accounted for is recorded against this database; establish what it did before another Apply`);
      c.set("Ready", "False", "ApplyOutcomeUnknown", "What the recorded run did is unknown until the database is read");
      c.set("Progressing", "False", "ApplyOutcomeUnknown", "The recorded run may not be retried");
      await this.write(m, { phase: "Blocked", activeOperation: null, plan: null }, c);
      return undefined;
    }
    const who = ack.spec.acknowledgedBy.username as string;
    const ac = new Conditions(ack.status?.conditions, ack.metadata.generation);
    ac.set("Consumed", "True", "RunAcknowledged", "The acknowledgment settled the unresolved run it names");
    await this.kube.mergePatch(`${resourcePath("ptahmigrationrunacknowledgments", ns, ack.metadata.name)}/status`, { status: { observedGeneration: ack.metadata.generation, conditions: ac.list } });
    c.set("Blocked", "False", "RunAcknowledged", `${who} acknowledged the ${run.outcome} run; the database is read again before anything is planned`);
    c.set("Ready", "False", "RunAcknowledged", "The history is read again before anything is planned");
    c.set("Progressing", "True", "OperationInProgress", "Reading the revision table");
    c.set("ApprovalRequired", "False", "NotRequired", "Nothing is planned until the history is read again");
    await this.write(
      m,
      {
        phase: "Reading",
        unresolvedRun: null,
        resolvedRun: {
          operationID: run.operationID,
          outcome: run.outcome,
          resolution: "Acknowledged",
          acknowledgmentRef: { name: ack.metadata.name, uid: ack.metadata.uid },
          acknowledgedBy: ack.spec.acknowledgedBy,
          resolvedAt: nowISO(),
        },
        activeOperation: this.operation(m, "History"),
      },
      c,
    );
    await this.kube.mergePatch(this.path(ns, m.metadata.name), { metadata: { annotations: { [UNRESOLVED_RUN_ANNOTATION]: null } } });
    this.log(`ptahmigration ${ns}/${m.metadata.name}: ${run.outcome} run acknowledged by ${who} (${ack.metadata.name})`);
    await this.event(m, "Normal", "UnresolvedRunAcknowledged", `${who} acknowledged the ${run.outcome} run of operation ${run.operationID} with ${ack.metadata.name}`);
    return this.stepMs;
  }

  private async listAcknowledgments(m: Obj): Promise<Obj[]> {
    return (await this.kube.list(resourcePath("ptahmigrationrunacknowledgments", m.metadata.namespace!)))
      .filter((a) => a.spec?.migrationRef?.name === m.metadata.name && !a.metadata.deletionTimestamp && !isCond(a, "Consumed", "True") && !isCond(a, "Stale", "True"))
      .sort((a, b) => String(a.metadata.creationTimestamp).localeCompare(String(b.metadata.creationTimestamp)) || a.metadata.name.localeCompare(b.metadata.name));
  }

  /** Acknowledgments that settle nothing are marked Stale/RunNotUnresolved (one reason each). */
  private async sweepAcknowledgments(m: Obj): Promise<void> {
    const ns = m.metadata.namespace!;
    const run = m.status?.unresolvedRun;
    const resolved = m.status?.resolvedRun;
    for (const a of await this.listAcknowledgments(m)) {
      let message: string | undefined;
      if (!a.spec?.acknowledgedBy?.username || !a.spec?.mutationRequestUID) message = "The acknowledgment carries no identity stamped by admission, so it settles nothing";
      else if (run?.operationID && a.spec.operationID !== run.operationID) message = `The migration is waiting on operation ${run.operationID}, not the one this acknowledgment names`;
      else if (!run?.operationID && resolved?.operationID === a.spec.operationID) message = `The run was already settled (${resolved.resolution ?? "Acknowledged"})`;
      else if (!run?.operationID) message = "The migration records no unresolved run for this acknowledgment to settle";
      if (!message) continue;
      const ac = new Conditions(a.status?.conditions, a.metadata.generation);
      ac.set("Stale", "True", "RunNotUnresolved", message);
      await this.kube.mergePatch(`${resourcePath("ptahmigrationrunacknowledgments", ns, a.metadata.name)}/status`, { status: { observedGeneration: a.metadata.generation, conditions: ac.list } });
      this.log(`ptahmigrationrunacknowledgment ${ns}/${a.metadata.name}: Stale=True (RunNotUnresolved)`);
    }
  }
}
