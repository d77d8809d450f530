// `kubectl ptah inbox [-n NAMESPACE | -A]`: what waits for a person, oldest first, and what the
// caller may do about it. Reads: one LIST of schemas and one of migrations, then
// SelfSubjectAccessReviews for create of the approval kinds the waiting items need. With -A, one
// cluster-wide review per kind first: a caller allowed everywhere (a ClusterRoleBinding) is done.
// Otherwise one review per (namespace, kind) among the waiting items — deduplicated and at most
// REVIEW_CONCURRENCY at a time, so `inbox -A` over 1,000 namespaces asks only about the
// namespaces where something waits.
import { UsageError } from "../errors.ts";
import type { KindName } from "../model/parse.ts";
import { formatJson, formatYaml } from "../render/formats.ts";
import { sanitize } from "../render/sanitize.ts";
import { inboxItems, inboxRow, renderInbox, type InboxItem, type InboxRow } from "./render/inbox.ts";
import type { ClusterReader } from "../kube/types.ts";
import type { Command, Printed, RunContext } from "./types.ts";
import { FLEET_FLAGS, aimAt, fleetPrinted, parseFleet, readFleet, type FleetChoice } from "./options/fleet.ts";

export interface InboxOptions {
  readonly output: "table" | "json" | "yaml";
  readonly absoluteTime: boolean;
  /** --contexts / --all-contexts (options/fleet.ts); undefined: the one current context. */
  readonly fleet?: FleetChoice;
}

/** SelfSubjectAccessReviews in flight at once. */
export const REVIEW_CONCURRENCY = 8;

function accessKey(namespace: string, kind: KindName): string {
  return `${namespace}\u0000${kind}`;
}

/** Runs the tasks, at most REVIEW_CONCURRENCY at a time. */
async function bounded(tasks: readonly (() => Promise<void>)[]): Promise<void> {
  const queue = [...tasks];
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) await next();
  };
  await Promise.all(Array.from({ length: Math.min(REVIEW_CONCURRENCY, queue.length) }, worker));
}

/** One access review through the seam: may the caller create `kind` in `namespace` ("" = every namespace)? */
async function mayCreate(reader: ClusterReader, kind: KindName, namespace: string): Promise<boolean> {
  // Loaded here, not at the top: a static import would bring zod into every start (--help too).
  const info = (await import("../model/parse.ts")).KINDS[kind];
  const [answer] = await reader.reviewAccess([{ verb: "create", group: info.group, resource: info.plural, namespace }]);
  return answer?.allowed === true;
}

/** May the caller create each needed kind in each namespace? Keys: accessKey(namespace, kind). */
async function reviewAll(reader: ClusterReader, items: readonly InboxItem[], allNamespaces: boolean): Promise<(namespace: string, kind: KindName) => boolean> {
  const kinds = [...new Set(items.flatMap((i) => (i.approvalKind ? [i.approvalKind] : [])))];
  // With -A, namespace "" asks about every namespace at once.
  const everywhere = new Set<KindName>();
  if (allNamespaces) {
    await bounded(
      kinds.map((kind) => async () => {
        if (await mayCreate(reader, kind, "")) everywhere.add(kind);
      }),
    );
  }
  const pairs = new Map<string, { namespace: string; kind: KindName }>();
  for (const i of items) if (i.approvalKind && !everywhere.has(i.approvalKind)) pairs.set(accessKey(i.namespace, i.approvalKind), { namespace: i.namespace, kind: i.approvalKind });
  const answers = new Map<string, boolean>();
  await bounded(
    [...pairs.entries()].map(([key, p]) => async () => {
      answers.set(key, await mayCreate(reader, p.kind, p.namespace));
    }),
  );
  return (namespace, kind) => everywhere.has(kind) || answers.get(accessKey(namespace, kind)) === true;
}

export const inboxCommand: Command<InboxOptions> = {
  name: "inbox",
  summary: "What waits for a person: approvals, run acknowledgments, blocked destructive plans",
  usage: "kubectl ptah inbox [-n NAMESPACE | -A] [--contexts A,B,… | --all-contexts] [--absolute-time] [-o json|yaml]",
  positionals: [],
  outputs: ["json", "yaml"],
  examples: [
    { comment: "What waits in the namespace, oldest first, and whether you may approve it", command: "kubectl ptah inbox -n app" },
    { comment: "Everything waiting, everywhere you can list", command: "kubectl ptah inbox -A" },
    { comment: "Everything waiting in every cluster of the kubeconfig, one CONTEXT column", command: "kubectl ptah inbox -A --all-contexts" },
  ],
  flags: [{ name: "absolute-time", type: "boolean", describe: "Print when each wait began instead of how long it has lasted" }, ...FLEET_FLAGS],
  hiddenGlobals: ["selector"],
  toOptions(args) {
    if (args.positionals.length > 0) throw new UsageError("inbox takes no names; narrow it with -n NAMESPACE", "inbox");
    const o = args.global.output;
    if (o !== undefined && o !== "" && o !== "text" && o !== "json" && o !== "yaml") throw new UsageError(`unknown output format "${o}"; it is one of [json yaml]`, "inbox");
    const fleet = parseFleet(args.flags, args.global, "inbox");
    return { output: o === "json" || o === "yaml" ? o : "table", absoluteTime: args.flags["absolute-time"] === true, ...(fleet ? { fleet } : {}) };
  },
  async run(options, ctx) {
    if (options.fleet) return runFleet(options, options.fleet, ctx);
    const { rows, namespace } = await readInbox(ctx);
    if (options.output !== "table") {
      const doc = { apiVersion: "v1", kind: "List", items: rows };
      return { kind: "printed", stdout: options.output === "json" ? formatJson(doc) : formatYaml(doc) };
    }
    if (rows.length === 0) {
      return {
        kind: "printed",
        stdout: "",
        stderr: namespace === undefined ? "Nothing is waiting for approval in any namespace.\n" : `Nothing is waiting for approval in ${sanitize(namespace)} namespace.\n`,
      };
    }
    return { kind: "printed", stdout: renderInbox(rows, { now: ctx.now, absoluteTime: options.absoluteTime, noHeaders: ctx.global.noHeaders }) };
  },
};

/** One context's inbox rows, and the namespace it was read in (undefined with -A). */
async function readInbox(ctx: RunContext): Promise<{ rows: InboxRow[]; namespace: string | undefined }> {
  const c = await ctx.connect();
  const namespace = ctx.global.allNamespaces ? undefined : c.namespace;
  const [schemas, migrations] = await Promise.all([c.reader.list("PtahSchema", { namespace, keepRaw: false }), c.reader.list("PtahMigration", { namespace, keepRaw: false })]);
  const items = inboxItems(
    schemas.items.map((s) => s.object),
    migrations.items.map((m) => m.object),
  );
  const mayCreate = await reviewAll(c.reader, items, ctx.global.allNamespaces);
  return { rows: items.map((i) => inboxRow(i, i.approvalKind ? mayCreate(i.namespace, i.approvalKind) : undefined)), namespace };
}

/** --contexts / --all-contexts: every context's rows, a CONTEXT column first, each NEXT aimed at its context. */
async function runFleet(options: InboxOptions, choice: Exclude<FleetChoice, undefined>, ctx: RunContext): Promise<Printed> {
  const result = await readFleet(ctx, choice, readInbox);
  const rows = result.answers.flatMap((a) => a.value.rows.map((r) => ({ ...r, context: a.context, next: aimAt(r.next, a.context) })));
  if (options.output !== "table") {
    const doc = { apiVersion: "v1", kind: "List", items: rows };
    return fleetPrinted(result, options.output === "json" ? formatJson(doc) : formatYaml(doc));
  }
  const note =
    rows.length === 0 && result.answers.length > 0
      ? `Nothing is waiting for approval in the ${result.answers.length === 1 ? "context" : `${result.answers.length} contexts`} read.\n`
      : "";
  const text =
    rows.length === 0 ? "" : renderInbox(rows, { now: ctx.now, absoluteTime: options.absoluteTime, noHeaders: ctx.global.noHeaders, contexts: rows.map((r) => r.context) });
  return fleetPrinted(result, text, note);
}
