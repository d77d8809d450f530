// The PtahMigration controller, runs: the Apply Job (the planned versions and their revision rows
// in one transaction on the real database), a Partial run recorded as status.unresolvedRun (and
// its annotation copy, written first), and the acknowledgments that settle it or are retired as
// Stale/RunNotUnresolved. migration-controller.ts drives the phases before.
import { randomUUID } from "node:crypto";
import { targetIdentityDigest } from "./binding.ts";
import { resolveMigrations, sha256, type MigrationFile } from "./catalog.ts";
import { Conditions, DISPATCHED_BY, KindController, MANAGER, isCond, nowISO, randomHex } from "./common.ts";
import type { Databases } from "./database.ts";
import { resourcePath, type Kube, type Obj } from "./kube.ts";
import { readHistory } from "./migration-history.ts";
import type { MigrationStep } from "./plans.ts";

export type Step = number | undefined;

export const UNRESOLVED_RUN_ANNOTATION = "operator.ptah.run/unresolved-run";

export abstract class MigrationRuns extends KindController {
  protected readonly dbs: Databases;

  constructor(kube: Kube, log: (m: string) => void, stepMs: number, dbs: Databases) {
    super("ptahmigrations", "PtahMigration", kube, log, stepMs);
    this.dbs = dbs;
  }

  protected operation(m: Obj, type: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
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

  protected async survey(m: Obj) {
    const art = resolveMigrations(String(m.spec.artifact.ociRef));
    if ("error" in art) throw new Error(art.error);
    const revisions = await this.dbs.readRevisions(m.metadata.namespace!, m.metadata.name);
    return { art, history: readHistory(art, revisions) };
  }

  /** The Apply Job: runs the planned versions in order and records them in the revision table, in one transaction. */
  protected async apply(m: Obj, c: Conditions): Promise<Step> {
    const ns = m.metadata.namespace!;
    const op = m.status.activeOperation;
    const planRef = op?.planRef ?? m.status.plan;
    const plan = planRef?.name ? await this.kube.get(resourcePath("ptahmigrationplans", ns, planRef.name)) : undefined;
    const { art } = await this.survey(m);
    if (!op || !plan || plan.metadata.uid !== planRef.uid) {
      await this.write(m, { phase: "Reading", activeOperation: this.operation(m, "History") }, c);
      return this.stepMs;
    }
    const startedAt = op.startedAt ?? nowISO();
    const files = new Map(art.files.map((f) => [f.version, f]));
    const run: MigrationFile[] = [];
    let failure: string | undefined;
    for (const step of plan.spec.migrations as MigrationStep[]) {
      const f = files.get(step.version);
      if (!f || sha256(f.sql) !== step.checksum) {
        failure = `the artifact's version ${step.version} differs from the approved sequence; nothing was run`;
        break;
      }
      run.push(f);
    }
    let ran: number[] = [];
    if (!failure) {
      // One transaction: every version and its revision row commit together, or none does.
      try {
        const rows = run.map((f) => ({ version: f.version, description: f.description, checksum: sha256(f.sql) }));
        await this.dbs.apply(
          ns,
          m.metadata.name,
          run.map((f) => f.sql),
          rows,
          `${op.jobName}: versions ${rows.map((r) => r.version).join(", ")}`,
        );
        ran = rows.map((r) => r.version);
        this.log(`ptahmigration ${ns}/${m.metadata.name}: applied versions ${ran.join(", ")} in one transaction`);
      } catch (err) {
        failure = `the run was rolled back, nothing was applied: ${(err as Error).message}`;
      }
    }
    const finishedAt = nowISO();
    if (art.partial && !failure) {
      // The statements committed, but the Job's final report was lost after the last one: the
      // manager cannot tell what ran, so the run is Partial and nothing may be retried.
      const unresolvedRun = {
        outcome: "Partial",
        operationID: op.id,
        jobName: op.jobName,
        jobUID: op.jobUID,
        planRef: { name: plan.metadata.name, uid: plan.metadata.uid },
        targetIdentityDigest: targetIdentityDigest(m),
        recordedAt: finishedAt,
        dispatchedBy: DISPATCHED_BY,
      };
      // The annotation copy is written before the status record.
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
          lastRun: {
            outcome: "Partial",
            jobName: op.jobName,
            jobUID: op.jobUID,
            startedAt,
            finishedAt,
            appliedVersions: reported,
            message: "The Job ended before it reported every migration; some statements may have committed",
            dispatchedBy: DISPATCHED_BY,
          },
        },
        c,
      );
      await this.event(m, "Warning", "MigrationRunFinished", `Apply run ${op.jobName} finished Partial after reporting ${reported.length} of ${ran.length} migrations`);
      return undefined;
    }
    const outcome = failure ? "Failed" : "Applied";
    c.set("Progressing", "True", "OperationInProgress", "Reading the history back after the run");
    c.set("Ready", "False", failure ? "OperationFailed" : "MigrationsPending", failure ?? "The history is read back before the migration counts as in sync");
    await this.write(
      m,
      {
        phase: "VerifyingHistory",
        activeOperation: null,
        lastRun: {
          outcome,
          jobName: op.jobName,
          jobUID: op.jobUID,
          startedAt,
          finishedAt,
          appliedVersions: ran,
          message: failure ?? `Applied ${ran.length} migrations`,
          dispatchedBy: DISPATCHED_BY,
        },
      },
      c,
    );
    await this.event(m, failure ? "Warning" : "Normal", "MigrationRunFinished", `Apply run ${op.jobName} finished ${outcome}: ${ran.length} migrations applied`);
    return this.stepMs;
  }

  /** Blocked on an unresolved run: the only way forward is an acknowledgment naming it. */
  protected async blockedOnRun(m: Obj, c: Conditions): Promise<Step> {
    const ns = m.metadata.namespace!;
    const run = m.status.unresolvedRun;
    const acks = await this.listAcknowledgments(m);
    const ack = acks.find(
      (a) => a.spec?.operationID === run.operationID && a.spec?.acknowledgedBy?.username && a.spec?.mutationRequestUID && a.spec?.migrationRef?.uid === m.metadata.uid,
    );
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
    await this.kube.mergePatch(`${resourcePath("ptahmigrationrunacknowledgments", ns, ack.metadata.name)}/status`, {
      status: { observedGeneration: ack.metadata.generation, conditions: ac.list },
    });
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

  protected async listAcknowledgments(m: Obj): Promise<Obj[]> {
    return (await this.kube.list(resourcePath("ptahmigrationrunacknowledgments", m.metadata.namespace!)))
      .filter((a) => a.spec?.migrationRef?.name === m.metadata.name && !a.metadata.deletionTimestamp && !isCond(a, "Consumed", "True") && !isCond(a, "Stale", "True"))
      .sort((a, b) => String(a.metadata.creationTimestamp).localeCompare(String(b.metadata.creationTimestamp)) || a.metadata.name.localeCompare(b.metadata.name));
  }

  /** Acknowledgments that settle nothing are marked Stale/RunNotUnresolved (one reason each). */
  protected async sweepAcknowledgments(m: Obj): Promise<void> {
    const ns = m.metadata.namespace!;
    const run = m.status?.unresolvedRun;
    const resolved = m.status?.resolvedRun;
    for (const a of await this.listAcknowledgments(m)) {
      let message: string | undefined;
      if (!a.spec?.acknowledgedBy?.username || !a.spec?.mutationRequestUID) message = "The acknowledgment carries no identity stamped by admission, so it settles nothing";
      else if (run?.operationID && a.spec.operationID !== run.operationID)
        message = `The migration is waiting on operation ${run.operationID}, not the one this acknowledgment names`;
      else if (!run?.operationID && resolved?.operationID === a.spec.operationID) message = `The run was already settled (${resolved.resolution ?? "Acknowledged"})`;
      else if (!run?.operationID) message = "The migration records no unresolved run for this acknowledgment to settle";
      if (!message) continue;
      const ac = new Conditions(a.status?.conditions, a.metadata.generation);
      ac.set("Stale", "True", "RunNotUnresolved", message);
      await this.kube.mergePatch(`${resourcePath("ptahmigrationrunacknowledgments", ns, a.metadata.name)}/status`, {
        status: { observedGeneration: a.metadata.generation, conditions: ac.list },
      });
      this.log(`ptahmigrationrunacknowledgment ${ns}/${a.metadata.name}: Stale=True (RunNotUnresolved)`);
    }
  }
}
