// What `kubectl ptah wait` waits for (--for, repeatable: every one must hold, as kubectl 1.34
// allows), and the verdict on what was seen: met, not yet, or never (it cannot hold any more).
//
// `approval=consumed` remembers the plan it waits for (the first `status.plan` seen) and the
// approval recorded for it. It can no longer hold, and the wait ends at once, when a different
// plan becomes current (the awaited one was superseded: its approval will never be dispatched)
// or when the recorded approval goes Stale (PlanNoLongerCurrent, SupersededApproval, …) before it
// was Consumed. A Consumed approval that is Stale as well was consumed: that holds. Remembering
// the approval lets the wait hold after the operator cleared `status.plan` (it does at InSync).
import { UsageError } from "../../errors.ts";
import { findCondition, isTrue } from "../../model/conditions.ts";
import type { PtahMigration, PtahSchema, PtahSchemaApproval } from "../../model/kinds.ts";
import { sanitize } from "../../render/sanitize.ts";

export type WaitFor =
  | { readonly kind: "condition"; readonly type: string; readonly status: string; readonly reason?: string }
  | { readonly kind: "phase"; readonly phase: string }
  | { readonly kind: "approval"; readonly state: "consumed" | "reserved" };

export type WaitTarget = PtahSchema | PtahMigration;

export type Verdict = { readonly kind: "met" } | { readonly kind: "pending" } | { readonly kind: "never"; readonly reason: string };

const HOW = "--for=condition=Type[=Status][,reason=Reason], --for=phase=Phase or --for=approval=consumed";

/** A condition reason as the API server admits one (metav1.Condition's pattern; commas and colons inside). */
const REASON = /^[A-Za-z](?:[A-Za-z0-9_,:]*[A-Za-z0-9_])?$/u;

/**
 * `Type[=Status][,reason=Reason]`: kubectl's `condition=Type[=Status]`, and a required reason
 * after a comma, the separator kubectl's selectors use. The reason is everything after `reason=`
 * (a reason may itself hold a comma), compared exactly: reasons are wire words.
 */
function parseCondition(text: string, value: string): WaitFor {
  const at = value.indexOf(",");
  const head = at < 0 ? value : value.slice(0, at);
  const tail = at < 0 ? undefined : value.slice(at + 1);
  const [type, status, extra] = head.split("=");
  const s = status ?? "True";
  const bad = (): UsageError => new UsageError(`invalid --for=${text}: use condition=Type, condition=Type=True|False|Unknown, and optionally ,reason=Reason`, "wait");
  if (!type || extra !== undefined || !["True", "False", "Unknown"].includes(s)) throw bad();
  if (tail === undefined) return { kind: "condition", type, status: s };
  if (!tail.startsWith("reason=") || !REASON.test(tail.slice("reason=".length))) throw bad();
  return { kind: "condition", type, status: s, reason: tail.slice("reason=".length) };
}

export function parseWaitFor(text: string | undefined): WaitFor {
  if (!text) throw new UsageError(`say what to wait for: ${HOW}`, "wait");
  const [what, ...rest] = text.split("=");
  const value = rest.join("=");
  if (what === "condition" && value) return parseCondition(text, value);
  if (what === "phase" && value) return { kind: "phase", phase: value };
  if (what === "approval" && (value === "consumed" || value === "reserved")) return { kind: "approval", state: value };
  throw new UsageError(`invalid --for=${text}: use condition=Type[=Status][,reason=Reason], phase=Phase or approval=consumed|reserved`, "wait");
}

/** --for as parsed (a string list, the flag being repeatable): each one, in the order given, duplicates once. */
export function parseWaitFors(values: unknown): WaitFor[] {
  const texts = Array.isArray(values) ? (values as string[]) : typeof values === "string" ? [values] : [];
  if (texts.length === 0) return [parseWaitFor(undefined)];
  const out: WaitFor[] = [];
  for (const t of texts) {
    const f = parseWaitFor(t);
    if (!out.some((o) => describeFor(o) === describeFor(f))) out.push(f);
  }
  return out;
}

export function describeFor(f: WaitFor): string {
  if (f.kind === "condition") return `condition ${f.type}=${f.status}${f.reason === undefined ? "" : `,reason=${f.reason}`}`;
  if (f.kind === "phase") return `phase ${f.phase}`;
  return `approval ${f.state}`;
}

/** Does it hold? Pure; `approvals` are the schema's namespace's approvals. Without memory (see Waiter). */
export function holds(target: WaitTarget, waitFor: WaitFor, approvals: readonly PtahSchemaApproval[]): boolean {
  const waiter = new Waiter([waitFor]);
  return waiter.judge(target, approvals).kind === "met";
}

interface Seen {
  readonly name: string;
  readonly uid: string | undefined;
  readonly fingerprint?: string | undefined;
}

/** A schema's current plan (approval waits are refused for migrations, whose `status.plan` is a bare reference). */
function recordedPlan(target: WaitTarget): PtahSchema["status"]["plan"] {
  return (target as PtahSchema).status.plan;
}

function samePlan(a: Seen, b: Seen): boolean {
  return a.name === b.name && (!a.uid || !b.uid || a.uid === b.uid) && (!a.fingerprint || !b.fingerprint || a.fingerprint === b.fingerprint);
}

/** The verdict over every --for, with what an approval wait must remember between observations. */
export class Waiter {
  private plan: Seen | undefined;
  private approval: Seen | undefined;
  readonly fors: readonly WaitFor[];
  constructor(fors: readonly WaitFor[]) {
    this.fors = fors;
  }

  /** What an approval wait waits on: the plan first seen and the approval recorded for it. */
  private remember(target: WaitTarget): Verdict {
    const current = recordedPlan(target);
    if (!current?.name) return { kind: "pending" };
    const seen: Seen = { name: current.name, uid: current.uid, fingerprint: current.fingerprint };
    if (!this.plan) this.plan = seen;
    else if (!samePlan(this.plan, seen)) {
      const was = `${sanitize(this.plan.name)}${this.plan.fingerprint ? ` (${sanitize(this.plan.fingerprint)})` : ""}`;
      return { kind: "never", reason: `the plan it waited for, ${was}, was superseded by ${sanitize(seen.name)}` };
    }
    if (current.approval?.name) this.approval = { name: current.approval.name, uid: current.approval.uid };
    return { kind: "pending" };
  }

  private one(target: WaitTarget, f: WaitFor, approvals: readonly PtahSchemaApproval[]): Verdict {
    const generation = target.metadata.generation;
    switch (f.kind) {
      case "condition": {
        const c = findCondition(target.status.conditions, f.type);
        const current = c !== undefined && (c.observedGeneration === undefined || generation === undefined || c.observedGeneration >= generation);
        const reason = f.reason === undefined || c?.reason === f.reason;
        return current && c.status === f.status && reason ? { kind: "met" } : { kind: "pending" };
      }
      case "phase": {
        const observed = target.status.observedGeneration === undefined || generation === undefined || target.status.observedGeneration >= generation;
        return target.status.phase === f.phase && observed ? { kind: "met" } : { kind: "pending" };
      }
      case "approval": {
        if (f.state === "reserved") return recordedPlan(target)?.approval?.name ? { kind: "met" } : { kind: "pending" };
        const moved = this.remember(target);
        if (moved.kind === "never") return moved;
        const want = this.approval;
        if (!want) return { kind: "pending" };
        const a = approvals.find((x) => x.metadata.name === want.name && (!want.uid || x.metadata.uid === want.uid));
        if (!a) return { kind: "pending" };
        if (isTrue(a.status.conditions, "Consumed")) return { kind: "met" };
        const stale = findCondition(a.status.conditions, "Stale");
        if (stale?.status !== "True") return { kind: "pending" };
        const why = [stale.reason, stale.message].filter(Boolean).map((s) => sanitize(s!));
        return { kind: "never", reason: `approval ${sanitize(want.name)} went Stale before it was consumed${why.length ? ` (${why.join(": ")})` : ""}` };
      }
    }
  }

  /** Met when every --for holds; never as soon as one cannot hold any more; else pending. */
  judge(target: WaitTarget | undefined, approvals: readonly PtahSchemaApproval[]): Verdict {
    if (!target) return { kind: "pending" };
    let all = true;
    for (const f of this.fors) {
      const v = this.one(target, f, approvals);
      if (v.kind === "never") return v;
      if (v.kind === "pending") all = false;
    }
    return all ? { kind: "met" } : { kind: "pending" };
  }

  /** The --for that do not hold on what was seen last (for the timeout's line). */
  unmet(target: WaitTarget | undefined, approvals: readonly PtahSchemaApproval[]): WaitFor[] {
    if (!target) return [...this.fors];
    return this.fors.filter((f) => this.one(target, f, approvals).kind !== "met");
  }
}
