// `kubectl ptah inbox [-n NAMESPACE | -A | --namespaces A,B]`: what waits for a person, oldest
// first, and what the caller may do about it. Reads: one LIST of schemas and one of migrations
// (per namespace with --namespaces; with -A, across all namespaces, or — when the caller may not
// list across all namespaces — in the context's namespace or those --namespaces names), then
// SelfSubjectAccessReviews for create of the approval kinds the waiting items need. With -A, one
// cluster-wide review per kind first: a caller allowed everywhere (a ClusterRoleBinding) is done.
// Otherwise one review per (namespace, kind) among the waiting items — deduplicated and at most
// REVIEW_CONCURRENCY at a time, so `inbox -A` over 1,000 namespaces asks only about the
// namespaces where something waits. Four-eyes: when an item you may approve records a
// last spec writer, one SelfSubjectReview says who you are; where you are that writer, YOU CAN
// says "approve (not you: you last changed its spec)". Without an answer (an older server, 403) it
// stays "approve": admission decides.
import { ReadError, UsageError } from "../../errors.ts";
import { formatJson, formatYaml } from "../../render/formats.ts";
import { sanitize } from "../../render/sanitize.ts";
import { inboxItems, inboxRow, renderInbox, type InboxItem, type InboxRow } from "./inbox-text.ts";
import type { ListResult } from "../../kube/types.ts";
import type { PtahMigration, PtahSchema } from "../../model/kinds.ts";
import { isDnsSubdomain } from "../../model/names.ts";
import { isSpecWriter } from "../../model/spec-writer.ts";
import { notShownWarnings } from "../shared/tolerance.ts";
import { countStuck, stuckFooter } from "../shared/stuck.ts";
import type { CommandBody, Connection, Printed, RunContext } from "../command-types.ts";
import { FLEET_FLAGS, aimAt, contextWarnings, fleetPrinted, parseFleet, readFleet, type FleetChoice } from "../shared/fleet.ts";
import { ACCESS_REVIEW, FOUR_EYES_SWITCH, ptah, WHO_AM_I } from "../shared/permissions.ts";
import { readFourEyesSwitch, switchLine, type FourEyesSwitch } from "../shared/four-eyes-switch.ts";
import { readAll } from "../shared/read.ts";
import { readPolicies, schemaPolicyView } from "../shared/policy-readback.ts";
import { needsIdentity, reviewAll, whoYouAre } from "./inbox-access.ts";
import { declaredOutput } from "../shared/output-flag.ts";

/** The switch when nothing you may approve records a writer: not read, and said nowhere. */
const NOT_ASKED: FourEyesSwitch = { kind: "not-asked" };

export { REVIEW_CONCURRENCY } from "./inbox-access.ts";

export interface InboxOptions {
  readonly output: "table" | "json" | "yaml";
  readonly absoluteTime: boolean;
  /** --namespaces: read these (alone), or fall back to them from -A. */
  readonly namespaces: readonly string[] | undefined;
  /** --contexts / --all-contexts (shared/fleet.ts); undefined: the one current context. */
  readonly fleet?: FleetChoice;
  /** --locks: read and verify each waiting schema plan for the LOCKS column. */
  readonly locks?: boolean;
}

interface Listed {
  readonly schemas: PtahSchema[];
  readonly migrations: PtahMigration[];
  /** Warning lines: objects that do not fit, what could not be listed. */
  readonly warnings: string;
}

function isForbidden(err: unknown): err is ReadError {
  return err instanceof ReadError && err.httpStatus === 403;
}

/** Schemas and migrations of one namespace (undefined: all namespaces). */
async function listIn(c: Connection, namespace: string | undefined): Promise<Listed> {
  const [schemas, migrations] = (await Promise.all([
    c.reader.list("PtahSchema", { namespace, keepRaw: false }),
    c.reader.list("PtahMigration", { namespace, keepRaw: false }),
  ])) as [ListResult<PtahSchema>, ListResult<PtahMigration>];
  return { schemas: schemas.items.map((s) => s.object), migrations: migrations.items.map((m) => m.object), warnings: notShownWarnings([schemas, migrations]) };
}

/**
 * Each namespace in turn; one the caller may not list is one warning line naming it and the
 * server's refusal, the others are shown. Every one of them forbidden: the first refusal.
 */
async function listEach(c: Connection, namespaces: readonly string[]): Promise<Listed> {
  const out: Listed = { schemas: [], migrations: [], warnings: "" };
  let refused: ReadError | undefined;
  let listed = 0;
  let warnings = "";
  for (const ns of namespaces) {
    try {
      const l = await listIn(c, ns);
      out.schemas.push(...l.schemas);
      out.migrations.push(...l.migrations);
      warnings += l.warnings;
      listed++;
    } catch (err) {
      if (!isForbidden(err)) throw err;
      refused ??= err;
      warnings += `Warning: namespace ${sanitize(ns)} not shown: ${err.message}\n`;
    }
  }
  if (listed === 0 && refused) throw refused;
  return { ...out, warnings };
}

/**
 * -A: one list across all namespaces. A caller who may not list there (only namespaced
 * RoleBindings) gets what it may read: the context's namespace, or those --namespaces names,
 * and one warning line saying what could not be listed.
 */
async function listEverywhere(c: Connection, fallback: readonly string[]): Promise<{ listed: Listed; allNamespaces: boolean }> {
  try {
    return { listed: await listIn(c, undefined), allNamespaces: true };
  } catch (err) {
    if (!isForbidden(err)) throw err;
    const listed = await listEach(c, fallback);
    const where = fallback.length === 1 ? `namespace ${sanitize(fallback[0]!)}` : `namespaces ${fallback.map(sanitize).join(", ")}`;
    return { listed: { ...listed, warnings: `Warning: could not list across all namespaces, showing ${where} only: ${err.message}\n` + listed.warnings }, allNamespaces: false };
  }
}

/** --namespaces a,b: names, comma-separated, each a namespace name. */
function parseNamespaces(raw: unknown): string[] | undefined {
  if (raw === undefined) return undefined;
  const names = String(raw as string)
    .split(",")
    .map((n) => n.trim());
  const bad = names.find((n) => !isDnsSubdomain(n) || n.includes("."));
  if (bad !== undefined) throw new UsageError(`--namespaces takes namespace names separated by commas, not ${JSON.stringify(bad)}`, "inbox");
  return [...new Set(names)];
}

/** The -o formats (the shell refuses any other). */
const OUTPUTS = ["json", "yaml"] as const;
/** inbox reads the approval policies only when a schema waits, and says nothing without them. */
const INBOX_POLICIES =
  "list `validatingadmissionpolicies` (by the label `ptah.run/approval-policy`) and `validatingadmissionpolicybindings` (cluster scope, when a schema waits for approval: the ENDORSED and WINDOW columns; without them, those columns are left out)";

export const inboxCommand: CommandBody<InboxOptions> = {
  positionals: [],
  outputs: OUTPUTS,
  examples: [
    { comment: "What waits in the namespace, oldest first, and whether you may approve it", command: "kubectl ptah inbox -n app" },
    {
      comment:
        "Everything waiting in every namespace; if you may not list across all namespaces, in your context's namespace only (or those --namespaces names), with one warning line saying so",
      command: "kubectl ptah inbox -A",
    },
    { comment: "What waits in the namespaces your RoleBindings let you read", command: "kubectl ptah inbox --namespaces app,billing" },
    { comment: "Everything waiting in every cluster of the kubeconfig, one CONTEXT column", command: "kubectl ptah inbox -A --all-contexts" },
    {
      comment:
        "Which waiting plan is dangerous: each one's strongest lock and what it blocks, and ROW VALUES from the verified plan itself (without --locks, ROW VALUES appears only where a schema's drift report lists rows to insert, update or delete)",
      command: "kubectl ptah inbox --locks",
    },
  ],
  flags: [
    { name: "absolute-time", type: "boolean", describe: "Print when each wait began instead of how long it has lasted" },
    {
      name: "namespaces",
      type: "string",
      value: "NS,NS",
      describe: "Read these namespaces (comma-separated); with -A, the ones read instead when you may not list across all namespaces (default: the context's namespace)",
    },
    {
      name: "locks",
      type: "boolean",
      describe:
        "Add a LOCKS column: the strongest lock each waiting schema plan takes and what it blocks (reads and verifies each plan, which also says whether it carries row values)",
    },
    ...FLEET_FLAGS,
  ],
  hiddenGlobals: ["selector"],
  permissions: [
    {
      form: "inbox",
      argv: ["inbox"],
      rules: [...ptah("list", "ptahschemas", "ptahmigrations"), ACCESS_REVIEW],
      note: `access reviews are granted to every authenticated user by Kubernetes' default \`system:basic-user\` role; ${WHO_AM_I}; ${FOUR_EYES_SWITCH}; ${INBOX_POLICIES}`,
    },
    {
      form: "inbox --locks",
      argv: ["inbox", "--locks"],
      rules: [...ptah("list", "ptahschemas", "ptahmigrations"), ...ptah("get", "ptahschemaplans", "ptahschemaplanchunks"), ACCESS_REVIEW],
      note: `each waiting schema's plan and its chunks are read and verified (older installs: get \`configmaps\`); ${WHO_AM_I}; ${INBOX_POLICIES}`,
    },
  ],
  toOptions(args) {
    if (args.positionals.length > 0) throw new UsageError("inbox takes no names; narrow it with -n NAMESPACE", "inbox");
    const o = declaredOutput(args, OUTPUTS, "inbox");
    const namespaces = parseNamespaces(args.flags.namespaces);
    if (namespaces && args.global.namespace !== undefined) throw new UsageError("-n and --namespaces both name the namespaces to read; give one of them", "inbox");
    const fleet = parseFleet(args.flags, args.global, "inbox");
    const locks = args.flags.locks === true;
    return {
      output: o ?? "table",
      absoluteTime: args.flags["absolute-time"] === true,
      namespaces,
      ...(fleet ? { fleet } : {}),
      ...(locks ? { locks } : {}),
    };
  },
  async run(options, ctx) {
    if (options.fleet) return runFleet(options, options.fleet, ctx);
    const { rows, where, warnings, stuck } = await readInbox(ctx, options.namespaces, options.locks === true);
    const warned = warnings ? { stderr: warnings } : {};
    if (options.output !== "table") {
      const doc = { apiVersion: "v1", kind: "List", items: rows };
      return { kind: "printed", stdout: options.output === "json" ? formatJson(doc) : formatYaml(doc), ...warned };
    }
    if (rows.length === 0) {
      return { kind: "printed", stdout: "", stderr: `${warnings}Nothing is waiting for approval in ${where}.\n${stuck}` };
    }
    // The footer: what stopped converging waits for nobody's approval, but for someone to look. It
    // goes to stderr, beside the warnings, so stdout stays the table a script reads.
    const footer = warnings + stuck;
    const view = { now: ctx.now, absoluteTime: options.absoluteTime, noHeaders: ctx.global.noHeaders, locks: options.locks === true };
    return { kind: "printed", stdout: renderInbox(rows, view), ...(footer ? { stderr: footer } : {}) };
  },
};

/** One context's inbox: the rows, where it looked (for "Nothing is waiting … in <where>") and its warning lines. */
async function readInbox(ctx: RunContext, only: readonly string[] | undefined, locks = false): Promise<{ rows: InboxRow[]; where: string; warnings: string; stuck: string }> {
  const c = await ctx.connect();
  const read = ctx.global.allNamespaces
    ? await listEverywhere(c, only ?? [c.namespace])
    : { listed: await (only ? listEach(c, only) : listIn(c, c.namespace)), allNamespaces: false };
  const { schemas, migrations, warnings } = read.listed;
  const items = inboxItems(schemas, migrations);
  const mayCreate = await reviewAll(c.reader, items, read.allNamespaces);
  const may = (i: InboxItem): boolean => (i.approvalKind ? mayCreate(i.namespace, i.approvalKind) : false);
  // Four-eyes read exactly where the account may: off, nobody's own approval is refused. Who you
  // are and the switch matter only when something you may approve records its spec writer: then
  // both are read at once (a failed switch read is the error, as when it went first), else neither.
  const needed = needsIdentity(items, may);
  const switchRead = needed ? readFourEyesSwitch(c) : Promise.resolve(NOT_ASKED);
  const meRead = needed ? whoYouAre(c.reader) : Promise.resolve(undefined);
  const [eyes, me] = await readAll([switchRead, meRead]);
  const own = (i: InboxItem): boolean => me !== undefined && i.writer !== undefined && isSpecWriter(i.writer, me);
  let rows = items.map((i) => inboxRow(i, i.approvalKind ? may(i) : undefined, eyes.kind !== "off" && own(i)));
  let lockWarnings = "";
  if (locks) {
    // Loaded only with --locks: plan loading, verification and the analyser.
    const { lockCells, lockKey } = await import("./inbox-locks.ts");
    const cells = await lockCells(c.reader, schemas, items);
    // The plan read for LOCKS says whether it carries row values: the document, not the drift report.
    rows = rows.map((r) => {
      const cell = cells.cells.get(lockKey(r.namespace, r.name));
      return cell ? { ...r, locks: cell.locks, rowValues: cell.rowValues } : { ...r, locks: "-" };
    });
    lockWarnings = cells.warnings;
  }
  // Without the cluster-scope list (most tenants), the columns are left out and nothing is said:
  // inbox would otherwise warn on every run; `status SCHEMA` names the read it could not make.
  if (rows.some((r) => r.reason === "schema-approval")) {
    const policies = await readPolicies(c);
    const bySchema = new Map(schemas.map((s) => [`${s.metadata.namespace ?? ""}/${s.metadata.name}`, s]));
    rows = rows.map((r) => {
      const schema = r.reason === "schema-approval" ? bySchema.get(`${r.namespace}/${r.name}`) : undefined;
      if (!schema) return r;
      const view = schemaPolicyView(policies, schema as unknown as Record<string, unknown>, ctx.now);
      return { ...r, ...(view.endorsed === undefined ? {} : { endorsed: view.endorsed }), ...(view.window === undefined ? {} : { window: view.window }) };
    });
  }
  const namespaces = read.allNamespaces ? undefined : (only ?? [c.namespace]);
  const where =
    namespaces === undefined ? "any namespace" : namespaces.length === 1 ? `${sanitize(namespaces[0]!)} namespace` : `namespaces ${namespaces.map(sanitize).join(", ")}`;
  // The switch is said only when it decides a row of yours: something you may approve records you as
  // its spec writer (refused when on, or when inferred — labelled as an inference —, allowed when
  // off). Anyone else's inbox stays quiet, whether or not they may read the configuration.
  const eyesLine = items.some(own) ? switchLine(eyes)?.replace(/:\s+/u, ": ") : undefined;
  return {
    rows,
    where,
    warnings: (eyesLine ? `${warnings}${eyesLine}\n` : warnings) + lockWarnings,
    stuck: stuckFooter(countStuck(schemas, migrations, ctx.now), namespaces === undefined || namespaces.length > 1 ? " -A" : ` -n ${sanitize(namespaces[0]!)}`),
  };
}

/** --contexts / --all-contexts: every context's rows, a CONTEXT column first, each NEXT aimed at its context. */
async function runFleet(options: InboxOptions, choice: Exclude<FleetChoice, undefined>, ctx: RunContext): Promise<Printed> {
  const result = await readFleet(ctx, choice, (c) => readInbox(c, options.namespaces, options.locks === true));
  const rows = result.answers.flatMap((a) => a.value.rows.map((r) => ({ ...r, context: a.context, next: aimAt(r.next, a.context) })));
  // Each context's warning lines, naming the context.
  const warnings = contextWarnings(result.answers, (v) => v.warnings);
  if (options.output !== "table") {
    const doc = { apiVersion: "v1", kind: "List", items: rows };
    return fleetPrinted(result, options.output === "json" ? formatJson(doc) : formatYaml(doc), warnings);
  }
  const note =
    rows.length === 0 && result.answers.length > 0
      ? `Nothing is waiting for approval in the ${result.answers.length === 1 ? "context" : `${result.answers.length} contexts`} read.\n`
      : "";
  const text =
    rows.length === 0
      ? ""
      : renderInbox(rows, {
          now: ctx.now,
          absoluteTime: options.absoluteTime,
          noHeaders: ctx.global.noHeaders,
          contexts: rows.map((r) => r.context),
          locks: options.locks === true,
        });
  return fleetPrinted(result, text, warnings + note);
}
