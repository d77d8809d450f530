// Where an object's phase, its conditions and their observedGeneration disagree. The operator writes
// them in separate steps, so one can lag the others: a migration whose Apply was claimed is
// `Applying` with its approval in use while `Ready=False AwaitingApproval` is still the wait's.
// Each disagreement is told as which part is newer, and advice follows the phase and the approval.
import type { PtahMigration, PtahSchema } from "../../model/kinds.ts";
import type { Condition } from "../../model/meta.ts";
import { formatAge } from "../../render/age.ts";
import { sanitize } from "../../errors.ts";

export type LagKind = "PtahSchema" | "PtahMigration";

/** Phases that come after the approval step: the wait for a person is over. */
const PAST_APPROVAL: Readonly<Record<LagKind, readonly string[]>> = {
  PtahSchema: ["ReadyToApply", "Applying", "VerifyingConvergence"],
  PtahMigration: ["Applying", "VerifyingHistory"],
};

/**
 * The approval the operator holds for its next or running Apply: a schema's reserved one
 * (status.plan.approval, until the plan is applied), a migration's active operation's approvalRef.
 */
export function approvalInUse(kind: LagKind, o: PtahSchema | PtahMigration): string | undefined {
  if (kind === "PtahSchema") {
    const s = (o as PtahSchema).status;
    return s.phase === "InSync" ? undefined : s.plan?.approval?.name || undefined;
  }
  return (o as PtahMigration).status.activeOperation?.approvalRef?.name || undefined;
}

/** The approval step is behind the object: an approval is in use, or the phase is past the wait. */
export function pastApproval(kind: LagKind, o: PtahSchema | PtahMigration): boolean {
  return approvalInUse(kind, o) !== undefined || PAST_APPROVAL[kind].includes(o.status.phase ?? "");
}

/** A condition that still reports the wait for an approval. */
function asksForApproval(c: Condition): boolean {
  return (c.type === "Ready" && c.status !== "True" && c.reason === "AwaitingApproval") || (c.type === "ApprovalRequired" && c.status === "True");
}

/** A condition the phase has overtaken: it reports the wait for an approval the object is past. */
export function lagsThePhase(kind: LagKind, o: PtahSchema | PtahMigration, c: Condition): boolean {
  return asksForApproval(c) && pastApproval(kind, o);
}

function words(c: Condition): string {
  return `${sanitize(c.type)}=${sanitize(c.status)}${c.reason ? ` ${sanitize(c.reason)}` : ""}`;
}

function ago(at: string | undefined, now: Date): string | undefined {
  return at ? `${formatAge(at, now)} ago` : undefined;
}

/** When the object's approval began to be used: the Apply's start, or the reserved approval's time. */
function inUseSince(kind: LagKind, o: PtahSchema | PtahMigration): string | undefined {
  if (kind === "PtahMigration") return (o as PtahMigration).status.activeOperation?.startedAt;
  return (o as PtahSchema).status.plan?.approval?.approvedAt;
}

/** Whether a condition was observed at an older or newer generation than the status's phase. */
function generationLag(o: PtahSchema | PtahMigration, c: Condition): "older" | "newer" | undefined {
  const og = o.status.observedGeneration;
  if (og === undefined || c.observedGeneration === undefined || c.observedGeneration === og) return undefined;
  return c.observedGeneration < og ? "older" : "newer";
}

/**
 * One line per disagreement, saying which part is newer; empty when phase and conditions agree.
 * An approval in use is newer than any condition still waiting for one (the operator takes an
 * approval only after the wait ended), whatever the timestamps say.
 */
export function lagLines(kind: LagKind, o: PtahSchema | PtahMigration, now: Date): string[] {
  const s = o.status;
  const phase = sanitize(s.phase ?? "unknown");
  const out: string[] = [];
  const inUse = approvalInUse(kind, o);
  for (const c of s.conditions.filter((x) => lagsThePhase(kind, o, x))) {
    const taken = ago(inUseSince(kind, o), now);
    const newer = inUse ? `phase ${phase} with approval ${sanitize(inUse)} in use${taken ? ` (taken ${taken})` : ""}` : `phase ${phase}, which comes after the approval`;
    out.push(`${words(c)} (set ${ago(c.lastTransitionTime, now) ?? "at an unknown time"}) is older than ${newer}; the wait it reports is over.`);
  }
  const og = s.observedGeneration;
  if (og !== undefined) {
    const older = s.conditions.filter((c) => generationLag(o, c) === "older");
    const newer = s.conditions.filter((c) => generationLag(o, c) === "newer");
    if (older.length > 0) {
      out.push(`${older.map(words).join(", ")} ${older.length === 1 ? "was" : "were"} observed at an older generation than phase ${phase} (generation ${og}), which is newer.`);
    }
    if (newer.length > 0) {
      out.push(
        `${newer.map(words).join(", ")} ${newer.length === 1 ? "was" : "were"} observed at a newer generation than phase ${phase} (generation ${og}); the phase is not updated yet.`,
      );
    }
  }
  return out;
}

/**
 * A list's READY cell note: whether the Ready condition is older or newer than the phase beside
 * it (it still reports a wait the object is past, or was observed at another generation).
 */
export function readyLag(kind: LagKind, o: PtahSchema | PtahMigration): "older than phase" | "newer than phase" | undefined {
  const ready = o.status.conditions.find((c) => c.type === "Ready");
  if (!ready) return undefined;
  const lag = lagsThePhase(kind, o, ready) ? "older" : generationLag(o, ready);
  return lag && `${lag} than phase`;
}
