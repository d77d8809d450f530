// `kubectl ptah history (SCHEMA | migration NAME) [--watch] [-o json] [--absolute-time]`:
// the condition history of a schema or migration, its plans and approvals, the approvals'
// durable ledger, and Events — headed by what Kubernetes still keeps (text output).
import { migrationLedger, schemaLedger, type LedgerEntry } from "../../approval/ledger.ts";
import { bindsSchema } from "../../approval/state.ts";
import type { KubeEvent, PtahMigration, PtahMigrationApproval, PtahMigrationRunAcknowledgment, PtahSchema, PtahSchemaApproval } from "../../model/kinds.ts";
import type { KindName, Parsed } from "../../model/parse.ts";
import { formatJson } from "../../render/formats.ts";
import { buildTimeline, entryKey, historyNote, renderTimeline, timelineRows, type TimelineEntry, type TimelineObject } from "./history-text.ts";
import { sanitize } from "../../render/sanitize.ts";
import { renderTable } from "../../render/table.ts";
import { parseTarget } from "../shared/arguments.ts";
import { getOrNotFound, noSuchMigration, noSuchSchema } from "../shared/read.ts";
import { sectionNotShownWarning, readMaybeShown, notShownWarnings, type MaybeShown } from "../shared/tolerance.ts";
import type { ListResult } from "../../kube/types.ts";
import { SCHEMA_OR_MIGRATION } from "../shared/candidates.ts";
import type { CommandBody, Printed, Connection, RunContext } from "../command-types.ts";
import { events, ptah } from "../shared/permissions.ts";
import { declaredOutput } from "../shared/output-flag.ts";

export interface HistoryOptions {
  readonly target: "schema" | "migration";
  readonly name: string;
  readonly watch: boolean;
  readonly json: boolean;
  readonly absoluteTime: boolean;
}

interface Loaded {
  readonly objects: TimelineObject[];
  readonly events: KubeEvent[];
  readonly ledger: LedgerEntry[];
  /** The earliest time of any Event the API server still holds in the namespace. */
  readonly oldestEvent: string | undefined;
  /** Whether the Events could be read at all (a forbidden read is a section not shown, not "none held"). */
  readonly eventsRead: boolean;
  /** Sections whose read was forbidden, with why: printed in place, warned on stderr. */
  readonly notShown: readonly { readonly section: string; readonly why: string }[];
  readonly warnings: string;
}

function oldestOf(events: readonly KubeEvent[]): string | undefined {
  let oldest: { at: number; text: string } | undefined;
  for (const e of events) {
    const text = e.firstTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp;
    const at = Date.parse(text ?? "");
    if (text && !Number.isNaN(at) && (!oldest || at < oldest.at)) oldest = { at, text };
  }
  return oldest?.text;
}

const NOTHING: MaybeShown<ListResult<unknown>> = { value: { items: [], resourceVersion: "", notShown: [] } };

function obj(kind: string, p: Parsed<{ metadata: { name: string; uid?: string }; status: { conditions: TimelineObject["conditions"] } }>): TimelineObject {
  return { kind, name: p.object.metadata.name, uid: p.object.metadata.uid, conditions: p.object.status.conditions };
}

/** What history reads, one entry per watched kind: the object itself, then its secondary lists. */
interface Reads {
  readonly root: Parsed<unknown>;
  readonly plans: MaybeShown<ListResult<unknown>>;
  readonly approvals: MaybeShown<ListResult<unknown>>;
  readonly acks: MaybeShown<ListResult<unknown>>;
  readonly events: MaybeShown<ListResult<unknown>>;
}
type Section = keyof Reads;

/** The kind each section reads (a schema has no run acknowledgments). */
function sectionKinds(options: HistoryOptions): Partial<Record<Section, KindName>> {
  return options.target === "schema"
    ? { root: "PtahSchema", plans: "PtahSchemaPlan", approvals: "PtahSchemaApproval", events: "Event" }
    : { root: "PtahMigration", plans: "PtahMigrationPlan", approvals: "PtahMigrationApproval", acks: "PtahMigrationRunAcknowledgment", events: "Event" };
}

/** The words a failed reload names. */
const SECTION_WORDS: Readonly<Record<Section, string>> = { root: "object", plans: "plans", approvals: "approvals", acks: "run acknowledgments", events: "events" };

async function readSection<S extends Section>(section: S, options: HistoryOptions, c: Connection): Promise<Reads[S]>;
async function readSection(section: Section, options: HistoryOptions, c: Connection): Promise<Reads[Section]> {
  const ns = c.namespace;
  const isSchema = options.target === "schema";
  const kind = sectionKinds(options)[section];
  if (kind === undefined) return NOTHING;
  switch (section) {
    case "root":
      return getOrNotFound(c.reader, kind, ns, options.name, isSchema ? noSuchSchema(ns, options.name) : noSuchMigration(ns, options.name));
    case "plans":
      return readMaybeShown<ListResult<unknown>>(c.reader.list(kind, { namespace: ns, labelSelector: `operator.ptah.run/${isSchema ? "schema" : "migration"}=${options.name}` }));
    case "approvals":
    case "acks":
    case "events":
      return readMaybeShown<ListResult<unknown>>(c.reader.list(kind, { namespace: ns }));
  }
}

async function readAll(options: HistoryOptions, c: Connection): Promise<Reads> {
  const [root, plans, approvals, acks, events] = await Promise.all([
    readSection("root", options, c),
    readSection("plans", options, c),
    readSection("approvals", options, c),
    readSection("acks", options, c),
    readSection("events", options, c),
  ]);
  return { root, plans, approvals, acks, events };
}

function assemble(options: HistoryOptions, reads: Reads): Loaded {
  const isSchema = options.target === "schema";
  const rootKind: KindName = isSchema ? "PtahSchema" : "PtahMigration";
  const { root, plans: plansRead, approvals: approvalsRead, acks: acksRead, events: eventsRead } = reads;
  const sections = [
    { section: "plans", read: plansRead },
    { section: "approvals", read: approvalsRead },
    { section: "run acknowledgments", read: acksRead },
    { section: "events", read: eventsRead },
  ];
  const notShown = sections.flatMap((s) => (s.read.notShown !== undefined ? [{ section: s.section, why: s.read.notShown }] : []));
  const lists = sections.flatMap((s) => (s.read.value ? [s.read.value] : []));
  const warnings = notShownWarnings(lists) + notShown.map((s) => sectionNotShownWarning(s.section, s.why)).join("");
  const plans = plansRead.value ?? NOTHING.value!;
  const approvals = approvalsRead.value ?? NOTHING.value!;
  const acks = acksRead.value;
  const events = eventsRead.value ?? NOTHING.value!;
  const rootObject = root.object as PtahSchema | PtahMigration;
  const objects: TimelineObject[] = [obj(rootKind, root as never)];
  for (const p of plans.items) objects.push(obj(isSchema ? "PtahSchemaPlan" : "PtahMigrationPlan", p as never));
  const bound = approvals.items.filter((a) => {
    const o = a.object as { spec: { migrationRef?: { name?: string; uid?: string } } };
    return isSchema
      ? bindsSchema(a.object as never, rootObject as never)
      : o.spec.migrationRef?.name === options.name && (!o.spec.migrationRef.uid || o.spec.migrationRef.uid === rootObject.metadata.uid);
  });
  for (const a of bound) objects.push(obj(isSchema ? "PtahSchemaApproval" : "PtahMigrationApproval", a as never));
  const ownAcks = (acks?.items ?? []).filter((k) => (k.object as { spec: { migrationRef?: { name?: string } } }).spec.migrationRef?.name === options.name);
  for (const k of ownAcks) objects.push(obj("PtahMigrationRunAcknowledgment", k as never));
  const ledger = isSchema
    ? schemaLedger(
        bound.map((a) => a.object as PtahSchemaApproval),
        [rootObject as PtahSchema],
      )
    : migrationLedger(
        bound.map((a) => a.object as PtahMigrationApproval),
        ownAcks.map((k) => k.object as PtahMigrationRunAcknowledgment),
        [rootObject as PtahMigration],
      );
  const held = events.items.map((e) => e.object as KubeEvent);
  return { objects, events: held, ledger, oldestEvent: oldestOf(held), eventsRead: eventsRead.notShown === undefined, notShown, warnings };
}

/**
 * After the history, one watch per involved kind. An event re-reads only its own kind's section
 * and prints the entries not printed before; a failed re-read is one stderr line, and the watch
 * goes on with what it last read.
 */
async function follow(options: HistoryOptions, ctx: RunContext, c: Connection, first: Reads, seen: Set<string>): Promise<void> {
  let reads = first;
  let busy: Promise<void> = Promise.resolve();
  // Objects that do not fit the model are warned once each, when a re-read first finds them.
  const warned = new Set(assemble(options, first).warnings.split("\n"));
  const reloadOnce = async (section: Section): Promise<void> => {
    const read = await readSection(section, options, c);
    reads = { ...reads, [section]: read };
    if (section !== "root") {
      const list = (read as Reads["plans"]).value;
      for (const line of list ? notShownWarnings([list]).split("\n") : []) {
        if (line && !warned.has(line)) ctx.log?.(line);
        warned.add(line);
      }
    }
    const loaded = assemble(options, reads);
    const fresh = buildTimeline(loaded.objects, loaded.events, loaded.ledger).filter((e) => !seen.has(entryKey(e)));
    for (const e of fresh) seen.add(entryKey(e));
    if (fresh.length === 0) return;
    if (options.json) for (const e of fresh) ctx.emit(formatJson(e, 0));
    else
      ctx.emit(
        renderTable(["", "", "", "", ""], timelineRows(fresh, { now: ctx.clock(), absoluteTime: options.absoluteTime, color: ctx.global.color, noHeaders: true }), {
          noHeaders: true,
        }),
      );
  };
  const reload = (section: Section): void => {
    busy = busy
      .then(() => reloadOnce(section))
      .catch((err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        ctx.log?.(`error: could not reload the ${SECTION_WORDS[section]} of ${c.namespace}/${options.name}: ${sanitize(message)}; still watching`);
      });
  };
  const watched = Object.entries(sectionKinds(options)) as [Section, KindName][];
  await Promise.all(
    watched.map(([section, kind]) => {
      let listed = false;
      return c.reader.watch(kind, {
        namespace: c.namespace,
        signal: ctx.signal,
        onList: () => {
          // The first list of each kind is already printed; a later relist may bring news.
          if (listed) reload(section);
          listed = true;
        },
        onEvent: () => reload(section),
        // An event whose object does not fit: the re-read warns about it and shows the rest.
        onNotShown: () => reload(section),
      });
    }),
  );
  await busy;
}

/** The -o formats (the shell refuses any other). */
const OUTPUTS = ["json"] as const;
export const historyCommand: CommandBody<HistoryOptions> = {
  positionals: SCHEMA_OR_MIGRATION,
  outputs: OUTPUTS,
  examples: [
    { comment: "The whole story of a schema, oldest first", command: "kubectl ptah history storefront" },
    { comment: "Follow new transitions and events as they happen", command: "kubectl ptah history storefront --watch" },
    { comment: "A migration's history with timestamps instead of ages", command: "kubectl ptah history migration billing --absolute-time" },
  ],
  flags: [
    { name: "watch", alias: "w", type: "boolean", describe: "After the history, follow new transitions and events" },
    { name: "absolute-time", type: "boolean", describe: "Print timestamps instead of ages" },
  ],
  hiddenGlobals: ["all-namespaces", "selector"],
  permissions: [
    {
      form: "history SCHEMA",
      argv: ["history", "storefront"],
      rules: [...ptah("get", "ptahschemas"), ...ptah("list", "ptahschemaplans", "ptahschemaapprovals"), ...events("list")],
    },
    {
      form: "history migration MIGRATION",
      argv: ["history", "migration", "billing"],
      rules: [...ptah("get", "ptahmigrations"), ...ptah("list", "ptahmigrationplans", "ptahmigrationapprovals", "ptahmigrationrunacknowledgments"), ...events("list")],
    },
    {
      form: "history SCHEMA --watch",
      argv: ["history", "storefront", "--watch"],
      rules: [
        ...ptah("get", "ptahschemas"),
        ...ptah("list", "ptahschemas", "ptahschemaplans", "ptahschemaapprovals"),
        ...events("list"),
        ...ptah("watch", "ptahschemas", "ptahschemaplans", "ptahschemaapprovals"),
        ...events("watch"),
      ],
    },
  ],
  toOptions(args) {
    const { target, name } = parseTarget(args.positionals, "history");
    const o = declaredOutput(args, OUTPUTS, "history");
    return { target, name, watch: args.flags.watch === true, json: o === "json", absoluteTime: args.flags["absolute-time"] === true };
  },
  async run(options, ctx): Promise<Printed> {
    const c = await ctx.connect();
    const reads = await readAll(options, c);
    const loaded = assemble(options, reads);
    const entries: TimelineEntry[] = buildTimeline(loaded.objects, loaded.events, loaded.ledger);
    const render = { now: ctx.now, absoluteTime: options.absoluteTime, color: ctx.global.color, noHeaders: ctx.global.noHeaders };
    // The header says what Kubernetes still keeps (only when the Events could be read); machine
    // output and --no-headers leave it out. Forbidden sections are named in place, after the
    // timeline (text only; JSON stays a list).
    const note = options.json || ctx.global.noHeaders || !loaded.eventsRead ? "" : historyNote(c.namespace, loaded.oldestEvent, render);
    const notShownLines = options.json ? "" : loaded.notShown.map((s) => `${s.section.charAt(0).toUpperCase()}${s.section.slice(1)}: not shown: ${s.why}\n`).join("");
    const text = (options.json ? (options.watch ? entries.map((e) => formatJson(e, 0)).join("") : formatJson(entries, 2)) : note + renderTimeline(entries, render)) + notShownLines;
    const warnings = loaded.warnings ? { stderr: loaded.warnings } : {};
    if (!options.watch) {
      if (entries.length === 0 && !options.json) return { kind: "printed", stdout: notShownLines, stderr: loaded.warnings + "No history recorded yet.\n" };
      return { kind: "printed", stdout: text, ...warnings };
    }
    ctx.emit(text);
    await follow(options, ctx, c, reads, new Set(entries.map(entryKey)));
    return { kind: "printed", stdout: "", ...warnings };
  },
};
