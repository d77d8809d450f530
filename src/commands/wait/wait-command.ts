// `kubectl ptah wait <schema> --for=…`: list then watch (bookmarks, reconnect, relist on 410)
// until every --for holds (a condition, phase or approval state); exit 0 when they do, 1 on
// timeout with the last state seen, and 1 at once when an approval wait can no longer hold (the
// plan was superseded, the approval went stale: wait-for.ts). A condition counts only
// once observed at the current generation.
import { findCondition } from "../../approval/state.ts";
import { ReadError, RefusalError, UsageError } from "../../errors.ts";
import type { PtahSchemaApproval } from "../../model/kinds.ts";
import type { KindName, Parsed } from "../../model/parse.ts";
import { sanitize } from "../../render/sanitize.ts";
import type { NotShownItem } from "../../kube/types.ts";
import { notShownWarning } from "../shared/tolerance.ts";
import { parseDurationFlag } from "../shared/duration.ts";

const WEEK_MS = 7 * 24 * 3_600_000;
import { parseTarget } from "../shared/arguments.ts";
import { SCHEMA_OR_MIGRATION } from "../shared/candidates.ts";
import { describeFor, parseWaitFors, Waiter, type Verdict, type WaitFor, type WaitTarget } from "./wait-for.ts";
import type { CommandBody } from "../command-types.ts";
import { ptah } from "../shared/permissions.ts";

export { holds, parseWaitFor, type WaitFor } from "./wait-for.ts";

export interface WaitOptions {
  readonly target: "schema" | "migration";
  readonly name: string;
  /** Every one must hold (--for repeated, as kubectl 1.34 allows). */
  readonly for: readonly WaitFor[];
  readonly timeoutMs: number;
}

type Target = WaitTarget;

export function describeState(target: Target | undefined): string {
  if (!target) return "the object was not seen";
  const ready = findCondition(target.status.conditions, "Ready");
  return `phase ${sanitize(target.status.phase ?? "-")}, Ready=${ready ? `${sanitize(ready.status)} (${sanitize(ready.reason ?? "")})` : "-"}`;
}

export const waitCommand: CommandBody<WaitOptions> = {
  positionals: SCHEMA_OR_MIGRATION,
  outputs: [],
  examples: [
    { comment: "Wait until the plan waits for a person", command: "kubectl ptah wait storefront --for=condition=ApprovalRequired" },
    { comment: "Wait until the approved plan has been applied and proven", command: "kubectl ptah wait storefront --for=phase=InSync --timeout=10m" },
    {
      comment: "Check once, without waiting (--timeout=0, as kubectl wait): exit 0 if it holds now, else 1",
      command: "kubectl ptah wait storefront --for=phase=InSync --timeout=0",
    },
    {
      comment: "Wait until the reserved approval was dispatched (ends at once with exit 1 if a new plan supersedes it or the approval goes stale)",
      command: "kubectl ptah wait storefront --for=approval=consumed",
    },
    {
      comment: "Wait until Ready is False for this reason (the reason is compared exactly)",
      command: "kubectl ptah wait migration billing --for=condition=Ready=False,reason=AwaitingApproval",
    },
    { comment: "Wait until every condition given holds", command: "kubectl ptah wait storefront --for=approval=consumed --for=phase=InSync --timeout=10m" },
  ],
  flags: [
    {
      name: "for",
      type: "string",
      value: "WHAT",
      describe:
        "condition=Type[=Status][,reason=Reason] (Status defaults to True; a reason given must match exactly), phase=Phase, or approval=consumed|reserved; repeat it: every one must hold",
      repeatable: true,
      required: true,
      values: ["condition=", "phase=", "approval=consumed", "approval=reserved"],
    },
  ],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers", "output"],
  ownsTimeout: true,
  permissions: [
    { form: "wait SCHEMA", argv: ["wait", "storefront", "--for=phase=AwaitingApproval", "--timeout=0"], rules: [...ptah("list", "ptahschemas"), ...ptah("watch", "ptahschemas")] },
    {
      form: "wait migration MIGRATION",
      argv: ["wait", "migration", "billing", "--for=phase=AwaitingApproval", "--timeout=0"],
      rules: [...ptah("list", "ptahmigrations"), ...ptah("watch", "ptahmigrations")],
    },
    {
      form: "wait SCHEMA --for=approval=…",
      argv: ["wait", "storefront", "--for=approval=consumed", "--timeout=0"],
      rules: [...ptah("list", "ptahschemas", "ptahschemaapprovals"), ...ptah("watch", "ptahschemas", "ptahschemaapprovals")],
    },
  ],
  toOptions(args) {
    const { target, name } = parseTarget(args.positionals, "wait");
    const waitFor = parseWaitFors(args.flags.for);
    if (target === "migration" && waitFor.some((f) => f.kind === "approval")) throw new UsageError("--for=approval applies to schemas", "wait");
    const timeout = typeof args.flags.timeout === "string" ? args.flags.timeout : "5m";
    // kubectl wait's reading: 0 checks once, a negative timeout waits for a week.
    const timeoutMs = parseDurationFlag(timeout, "timeout");
    return { target, name, for: waitFor, timeoutMs: timeoutMs < 0 ? WEEK_MS : timeoutMs };
  },
  async run(options, ctx) {
    const connection = await ctx.connect();
    const kind: KindName = options.target === "schema" ? "PtahSchema" : "PtahMigration";
    const controller = new AbortController();
    const stop = (): void => controller.abort();
    ctx.signal.addEventListener("abort", stop, { once: true });
    let target: Target | undefined;
    // The target as last served did not fit the model: warned, and the wait goes on (a later
    // version may fit and meet the condition); a timeout names it as the last state seen.
    let lastNotShown: string | undefined;
    const warnNotShown = (r: NotShownItem): void => {
      if (r.problem !== lastNotShown) ctx.log?.(notShownWarning(r).trimEnd());
      lastNotShown = r.problem;
      target = undefined;
    };
    const warnOnly = (r: NotShownItem): void => ctx.log?.(notShownWarning(r).trimEnd());
    const approvals = new Map<string, PtahSchemaApproval>();
    const waiter = new Waiter(options.for);
    const watchesApprovals = options.for.some((f) => f.kind === "approval");
    let verdict: Verdict = { kind: "pending" };
    const check = (): void => {
      verdict = waiter.judge(target, [...approvals.values()]);
      if (verdict.kind !== "pending") controller.abort();
    };
    const timer = options.timeoutMs > 0 ? setTimeout(stop, options.timeoutMs) : undefined;
    // --timeout=0 checks once, as `kubectl wait --timeout=0` does: after the first list of every
    // watched kind (the check runs on each), the wait ends.
    let unlisted = watchesApprovals ? 2 : 1;
    const listed = (): void => {
      if (options.timeoutMs === 0 && --unlisted === 0) stop();
    };
    try {
      const watches: Promise<void>[] = [
        connection.reader.watch(kind, {
          namespace: connection.namespace,
          fieldSelector: `metadata.name=${options.name}`,
          signal: controller.signal,
          onList: (items, notShown) => {
            target = (items[0] as Parsed<Target> | undefined)?.object;
            lastNotShown = undefined;
            for (const r of notShown) warnNotShown(r);
            check();
            listed();
          },
          onEvent: (type, item) => {
            target = type === "DELETED" ? undefined : (item as Parsed<Target>).object;
            lastNotShown = undefined;
            check();
          },
          onNotShown: (type, r) => {
            if (type === "DELETED") {
              target = undefined;
              lastNotShown = undefined;
            } else warnNotShown(r);
          },
        }),
      ];
      if (watchesApprovals) {
        watches.push(
          connection.reader.watch("PtahSchemaApproval", {
            namespace: connection.namespace,
            signal: controller.signal,
            onList: (items, notShown) => {
              approvals.clear();
              for (const i of items) approvals.set((i.object as PtahSchemaApproval).metadata.name, i.object as PtahSchemaApproval);
              notShown.forEach(warnOnly);
              check();
              listed();
            },
            onEvent: (type, item) => {
              const a = item.object as PtahSchemaApproval;
              if (type === "DELETED") approvals.delete(a.metadata.name);
              else approvals.set(a.metadata.name, a);
              check();
            },
            onNotShown: (type, r) => {
              approvals.delete(String((r.raw.metadata as { name?: unknown } | undefined)?.name));
              if (type !== "DELETED") warnOnly(r);
              check();
            },
          }),
        );
      }
      // --timeout bounds the whole wait, a request still in flight included (with
      // --request-timeout=0 a stalled list would otherwise outlive it).
      const stopped = new Promise<void>((resolve) => {
        if (controller.signal.aborted) resolve();
        controller.signal.addEventListener("abort", () => resolve(), { once: true });
      });
      const all = Promise.all(watches);
      all.catch(() => undefined); // a request failing after the deadline is no longer news
      await Promise.race([all, stopped]);
    } finally {
      if (timer) clearTimeout(timer);
      ctx.signal.removeEventListener("abort", stop);
    }
    const resource = `${kind.toLowerCase()}.operator.ptah.run/${sanitize(options.name)}`;
    const final = verdict as Verdict;
    if (final.kind === "met") return { kind: "printed", stdout: options.for.map((f) => `${resource} ${describeFor(f)} met\n`).join("") };
    if (final.kind === "never") throw new RefusalError(`stopped waiting for ${describeFor(options.for.find((f) => f.kind === "approval")!)} on ${resource}: ${final.reason}`);
    const seen = lastNotShown !== undefined ? `it does not fit the model (${sanitize(lastNotShown)})` : describeState(target);
    const unmet = waiter
      .unmet(target, [...approvals.values()])
      .map(describeFor)
      .join(" and ");
    if (ctx.signal.aborted) throw new ReadError(`interrupted while waiting for ${unmet} on ${resource}; last seen: ${seen}`);
    throw new ReadError(`timed out waiting for ${unmet} on ${resource}; last seen: ${seen}`);
  },
};
