// `kubectl ptah diff <schema>`: what changed between two plans of one schema — by default the
// plan of the newest stale or consumed approval and the plan waiting now. Both sides are loaded
// and verified with every check of `plan` before anything is printed; a refusal names the side.
// Reads: get schema, (list approvals | get approval), then each plan and its chunks.
import { NotFoundError, PtahError, ReadError, UsageError, VerificationError } from "../../errors.ts";
import type { ClusterReader } from "../../kube/types.ts";
import type { PtahSchema, PtahSchemaApproval } from "../../model/kinds.ts";
import type { Parsed } from "../../model/parse.ts";
import { recordedBindingValuesOfApproval, type RecordedBindingValues } from "../../plan/binding-diff.ts";
import { loadNamedPlan, loadPlanSchema, loadRecordedPlan, type VerifiedPlan } from "../../plan/load.ts";
import { selectPlanRecord, type PlanRecord } from "../../plan/select.ts";
import { CheckLog } from "../../plan/verify.ts";
import { escapeJsonText } from "../../render/formats.ts";
import { alignmentWarning, buildDiffView, renderDiffStat, renderDiffText, type DiffSource, type DiffView, type FromSide, type StoredSide } from "../shared/diff-view.ts";
import { renderDiffJson, renderDiffSql, type DiffLocks } from "./diff-output.ts";
import { renderDiffMarkdown } from "../shared/plan-markdown.ts";
import { sanitizeSqlForTerminal } from "../shared/plan-view.ts";
import { chooseFromApproval } from "./diff-from.ts";
import { getOrNotFound } from "../shared/read.ts";
import { SCHEMA } from "../shared/candidates.ts";
import type { CommandBody } from "../command-types.ts";
import { ptah } from "../shared/permissions.ts";
import { declaredOutput } from "../shared/output-flag.ts";

export const DIFF_FORMATS = ["text", "json", "sql", "markdown"] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

/** `--exit-code`: printed, and the two plans differ (0–3 keep their meaning). */
export const EXIT_DIFFERS = 4;

export type FromChoice = { readonly kind: "default" } | DiffSource;
export type ToChoice = Extract<DiffSource, { kind: "current" | "plan" }>;

export interface DiffOptions {
  readonly schema: string;
  readonly from: FromChoice;
  readonly to: ToChoice;
  readonly output: DiffFormat;
  readonly stat: boolean;
  readonly exitCode: boolean;
}

/** `applied`, `approval/NAME` (the shell joins `approval NAME`), `plan/NAME`, `current`. */
function parseSide(flag: "from" | "to", raw: unknown): FromChoice {
  if (raw === undefined) return flag === "from" ? { kind: "default" } : { kind: "current" };
  // A string flag: the parser gives a string (the last one when given twice).
  const value = Array.isArray(raw) ? String(raw[raw.length - 1]) : String(raw as string);
  const words = flag === "from" ? "applied, approval NAME or plan NAME" : "current or plan NAME";
  const slash = value.indexOf("/");
  const word = slash < 0 ? value : value.slice(0, slash);
  const name = slash < 0 ? "" : value.slice(slash + 1);
  if (flag === "from" && value === "applied") return { kind: "applied" };
  if (flag === "to" && value === "current") return { kind: "current" };
  if ((word === "plan" || (flag === "from" && word === "approval")) && name !== "") return { kind: word, name };
  if (word === "plan" || word === "approval") throw new UsageError(`--${flag} ${word} needs the name of the ${word === "plan" ? "PtahSchemaPlan" : "PtahSchemaApproval"}`, "diff");
  throw new UsageError(`--${flag} is ${words}, not ${JSON.stringify(value)}`, "diff");
}

export const diffCommand: CommandBody<DiffOptions> = {
  positionals: [SCHEMA],
  outputs: DIFF_FORMATS,
  examples: [
    { comment: "What differs from the plan you approved last, to the plan that waits now", command: "kubectl ptah diff storefront" },
    { comment: "From the plan one approval names", command: "kubectl ptah diff storefront --from approval storefront-v1" },
    { comment: "From the applied plan, only the counts", command: "kubectl ptah diff storefront --from applied --stat" },
    { comment: "The waiting plan's SQL, added and removed statements marked", command: "kubectl ptah diff storefront -o sql" },
    { comment: "A summary of the change to paste into a pull request or a ticket (GitHub-flavoured Markdown)", command: "kubectl ptah diff storefront -o markdown" },
    { comment: "A CI gate: exit 4 when the plans differ", command: "kubectl ptah diff storefront --from plan ptah-plan-4b44084123f0958600629632 --exit-code" },
  ],
  flags: [
    {
      name: "from",
      type: "string",
      value: "SOURCE",
      describe: "applied, approval NAME or plan NAME (default: the plan of the newest approval of this schema that is stale or consumed, else applied)",
      valueWords: { applied: undefined, approval: "PtahSchemaApproval", plan: "PtahSchemaPlan" },
    },
    { name: "to", type: "string", value: "TARGET", describe: "current (the default) or plan NAME", valueWords: { current: undefined, plan: "PtahSchemaPlan" } },
    { name: "stat", type: "boolean", describe: "Print only the counts: fingerprint inputs that differ, statements added, removed, unchanged" },
    { name: "exit-code", type: "boolean", describe: `Exit ${EXIT_DIFFERS} when the two plans differ (0 when they are the same plan), as git diff --exit-code` },
  ],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers"],

  permissions: [
    {
      form: "diff SCHEMA",
      argv: ["diff", "storefront"],
      rules: [...ptah("get", "ptahschemas", "ptahschemaplans", "ptahschemaplanchunks"), ...ptah("list", "ptahschemaapprovals")],
    },
    {
      form: "diff SCHEMA --from approval NAME",
      argv: ["diff", "storefront", "--from", "approval", "storefront-old"],
      rules: [...ptah("get", "ptahschemas", "ptahschemaplans", "ptahschemaplanchunks"), ...ptah("get", "ptahschemaapprovals")],
    },
  ],
  toOptions(args) {
    if (args.positionals.length !== 1) throw new UsageError("name one PtahSchema", "diff");
    const from = parseSide("from", args.flags.from);
    const to = parseSide("to", args.flags.to) as ToChoice;
    const output = declaredOutput(args, DIFF_FORMATS, "diff") ?? "text";
    if (args.global.allNamespaces) throw new UsageError("two plans of one schema are read from one namespace; drop --all-namespaces", "diff");
    const stat = args.flags.stat === true;
    if (stat && output !== "text") throw new UsageError(`--stat belongs to the text view; it cannot be combined with -o ${output}`, "diff");
    return { schema: args.positionals[0]!, from, to, output, stat, exitCode: args.flags["exit-code"] === true };
  },

  async run(options, ctx) {
    const { reader, namespace } = await ctx.connect();
    const schema = await loadPlanSchema(reader, namespace, options.schema);
    const chosen = options.from.kind === "default" ? await chooseFromApproval(reader, schema.object) : undefined;
    const fromSource: DiffSource = chosen ? chosen.source : (options.from as DiffSource);
    const from = await loadFrom(reader, schema, fromSource, chosen?.approval);
    const to: StoredSide = { kind: "stored", source: options.to, plan: await onSide("to", options.to, (log) => loadTo(reader, schema, options.to, log)) };
    const view = buildDiffView({ namespace, schemaName: options.schema, from, to, chosen: chosen?.why });
    const exitStatus = options.exitCode && view.differs ? EXIT_DIFFERS : 0;
    let stdout: string;
    if (options.stat) stdout = renderDiffStat(view);
    else if (options.output === "json") {
      const json = renderDiffJson(view, await diffLocksJson(view));
      stdout = ctx.isTTY ? escapeJsonText(json) : json;
    } else if (options.output === "markdown") stdout = renderDiffMarkdown(view, { version: ctx.version, now: ctx.now, lockSection: await diffLocks(view) });
    else if (options.output === "sql") stdout = ctx.isTTY ? sanitizeSqlForTerminal(renderDiffSql(view)) : renderDiffSql(view);
    else stdout = renderDiffText(view, { color: ctx.global.color, width: ctx.isTTY ? ctx.width : undefined });
    const stderr = (chosen?.warnings ?? "") + alignmentWarning(view);
    return { kind: "printed", stdout, exitStatus, ...(stderr ? { stderr } : {}) };
  },
};

/** The lock-impact section of -o markdown: the new plan's, and what it widens over the old one (analysed only here). */
async function diffLocks(view: DiffView): Promise<string> {
  const [{ analysePlan }, { diffLockSection }] = await Promise.all([import("../shared/lock-impact.ts"), import("../shared/lock-markdown.ts")]);
  const from = view.from.kind === "gone" ? undefined : await analysePlan(view.from.plan);
  return diffLockSection(from, await analysePlan(view.to.plan));
}

/** -o json's `locks`: what the new plan widens (a relation, or a stronger mode, the old plan did not take). */
async function diffLocksJson(view: DiffView): Promise<DiffLocks> {
  const [{ analysePlan }, { widenedLocks }] = await Promise.all([import("../shared/lock-impact.ts"), import("../shared/lock-markdown.ts")]);
  if (view.from.kind === "gone") return { compared: false, reason: "the from plan is gone, and its SQL is stored nowhere else", widens: [] };
  const [from, to] = [await analysePlan(view.from.plan), await analysePlan(view.to.plan)];
  if (!from.analysed || !to.analysed) return { compared: false, reason: (!to.analysed ? to.reason : from.reason) ?? "not analysed", widens: [] };
  return { compared: true, widens: widenedLocks(from, to) };
}

function loadTo(reader: ClusterReader, schema: Parsed<PtahSchema>, to: ToChoice, log: CheckLog): Promise<VerifiedPlan> {
  if (to.kind === "plan") return loadNamedPlan(reader, schema, to.name, { log });
  const record = log.run("selection", () => selectPlanRecord(schema.object, schema.object.metadata.namespace ?? "", "current"));
  return loadRecordedPlan(reader, schema, record, { log });
}

function sideLabel(source: DiffSource): string {
  return source.kind === "approval" || source.kind === "plan" ? `${source.kind} ${source.name}` : source.kind;
}

/** Runs one side's load; a refusal names the side and the check that failed, keeping its exit status. */
async function onSide<T>(side: "from" | "to", source: DiffSource, load: (log: CheckLog) => Promise<T>): Promise<T> {
  const log = new CheckLog();
  try {
    return await load(log);
  } catch (err) {
    if (!(err instanceof PtahError)) throw err;
    const failed = [...log.results].reverse().find((r) => !r.ok)?.check;
    const message = `the ${side} plan (${sideLabel(source)})${failed ? ` failed the check "${failed}"` : " could not be read"}: ${err.message}`;
    if (err instanceof NotFoundError) throw new NotFoundError(message);
    if (err instanceof ReadError) throw new ReadError(message, err.httpStatus);
    if (err instanceof VerificationError) throw new VerificationError(message);
    throw new PtahError(message, err.exitStatus);
  }
}

function isGone(err: unknown): boolean {
  return err instanceof NotFoundError && / is gone$/u.test(err.message);
}

async function loadFrom(reader: ClusterReader, schema: Parsed<PtahSchema>, source: DiffSource, listed: PtahSchemaApproval | undefined): Promise<FromSide> {
  const namespace = schema.object.metadata.namespace ?? "";
  if (source.kind === "plan") return { kind: "stored", source, plan: await onSide("from", source, (log) => loadNamedPlan(reader, schema, source.name, { log })) };
  if (source.kind === "current") return { kind: "stored", source, plan: await onSide("from", source, (log) => loadTo(reader, schema, source, log)) };
  let record: PlanRecord;
  let recordedBy: string;
  let recorded: RecordedBindingValues;
  if (source.kind === "approval") {
    const a =
      listed ??
      ((await onSide("from", source, () => getOrNotFound(reader, "PtahSchemaApproval", namespace, source.name, `no such approval: ${namespace}/${source.name}`)))
        .object as PtahSchemaApproval);
    record = approvalRecord(a, schema.object, source);
    recordedBy = `approval ${source.name}`;
    recorded = recordedBindingValuesOfApproval(a);
  } else {
    record = await onSide("from", source, async (log) => log.run("selection", () => selectPlanRecord(schema.object, namespace, "applied")));
    recordedBy = "the applied record";
    const applied = schema.object.status.applied;
    recorded = { ...(applied?.artifactDigest ? { artifactDigest: applied.artifactDigest } : {}), ...(applied?.ptahVersion ? { ptahVersion: applied.ptahVersion } : {}) };
  }
  try {
    return { kind: "stored", source, plan: await onSide("from", source, (log) => loadRecordedPlan(reader, schema, record, { log })) };
  } catch (err) {
    if (!isGone(err) || !record.planName || !record.fingerprint) throw err;
    return { kind: "gone", source, planName: record.planName, fingerprint: record.fingerprint, recorded, recordedBy };
  }
}

/** The record an approval makes of its plan; it must bind this very schema (name and UID). */
function approvalRecord(a: PtahSchemaApproval, schema: PtahSchema, source: DiffSource): PlanRecord {
  const ref = a.spec.schemaRef;
  const where = `${schema.metadata.namespace ?? ""}/${schema.metadata.name}`;
  if (ref?.name !== schema.metadata.name || !ref.uid || ref.uid !== schema.metadata.uid) {
    throw new VerificationError(
      `the from plan (${sideLabel(source)}) failed the check "selection": the approval binds ${ref?.name ?? "no schema"} (UID ${ref?.uid || "none"}), not ${where} (UID ${schema.metadata.uid ?? "none"})`,
    );
  }
  return {
    selection: "approval",
    namespace: schema.metadata.namespace ?? "",
    schemaName: schema.metadata.name,
    planName: a.spec.planRef?.name || undefined,
    planUID: a.spec.planRef?.uid || undefined,
    fingerprint: a.spec.planFingerprint || undefined,
    completedAt: undefined,
    needsFingerprintLookup: false,
  };
}
