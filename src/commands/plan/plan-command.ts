// `kubectl ptah plan <schema>`: upstream's plan command, verified before
// anything is printed, plus -o yaml, --statements, --verify, --plan NAME (any retained plan) and
// --export FILE, and `--verify -f FILE` (an export, offline). Reads: get schema → get plan → get
// each chunk (no list, except for an older applied record without planRef, and an export's
// approvals).
import { PtahError, UsageError } from "../../errors.ts";
import type { VerifiedPlan } from "../../plan/load.ts";
import type { ExportSigning } from "./plan-export.ts";
import { CheckLog } from "../../plan/verify.ts";
import { loadChosen, selectionLabel, type PlanChoice } from "./plan-choice.ts";
import { escapeJsonText, formatJson, formatYaml } from "../../render/formats.ts";
import type { LockReport } from "../../locks/index.ts";
import { renderPlanJson, renderPlanSql, sanitizeSqlForTerminal } from "../shared/plan-view.ts";
import { renderPlanText, renderVerifyReport } from "./plan-text.ts";
import { renderPlanMarkdown } from "../shared/plan-markdown.ts";
import { SCHEMA } from "../shared/candidates.ts";
import type { CommandBody, RunContext } from "../command-types.ts";
import { ptah } from "../shared/permissions.ts";
import { declaredOutput } from "../shared/output-flag.ts";

export const PLAN_FORMATS = ["text", "sql", "json", "yaml", "markdown"] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

export interface PlanOptions {
  /** Empty for `--verify -f FILE`, which names no schema: the file does. */
  readonly schema: string;
  readonly selection: PlanChoice;
  /** --export FILE: write the verified plan's export there instead of printing it. */
  readonly exportTo: string | undefined;
  /** -f FILE with --verify: verify an export offline. */
  readonly file: string | undefined;
  /** The export's signature: --sign KEY with --export; --allowed-signers, --signature and --signer with -f. */
  readonly signing: ExportSigning;
  readonly output: PlanFormat;
  readonly statements: boolean;
  readonly verify: boolean;
  /** --locks: the lock impact of every statement (text, json, yaml). */
  readonly locks: boolean;
}

export const planCommand: CommandBody<PlanOptions> = {
  positionals: [SCHEMA],
  outputs: PLAN_FORMATS,
  examples: [
    { comment: "The plan the operator would run next, with its header", command: "kubectl ptah plan storefront -n app" },
    { comment: "The SQL the last confirmed apply ran, as a file", command: "kubectl ptah plan storefront --applied -n app -o sql > plan.sql" },
    { comment: "The stored plan document; it hashes to the plan's content digest", command: "kubectl ptah plan storefront -o json" },
    { comment: "Each statement's severity and reason next to its first line", command: "kubectl ptah plan storefront --statements" },
    { comment: "A CI gate: verify every check, print the report, exit 1 if any fails", command: "kubectl ptah plan storefront --verify" },
    { comment: "Any retained plan by name (kubectl ptah plans lists them), with every check", command: "kubectl ptah plan storefront --plan ptah-plan-0a1b2c3d" },
    {
      comment: "Export a plan before deleting it: one file with its bytes, objects and fingerprint inputs",
      command: "kubectl ptah plan storefront --plan ptah-plan-0a1b2c3d --export plan.json",
    },
    { comment: "Re-verify an export offline, byte for byte, without a cluster", command: "kubectl ptah plan --verify -f plan.json" },
    {
      comment: "Export and sign it with an SSH key (plan.json.sig, as ssh-keygen -Y sign writes it)",
      command: "kubectl ptah plan storefront --export plan.json --sign ~/.ssh/id_ed25519",
    },
    {
      comment: "Verify an export and who signed it, against ssh-keygen's allowed signers file",
      command: "kubectl ptah plan --verify -f plan.json --allowed-signers allowed_signers",
    },
    {
      comment: "The same, and exit 1 unless alice@example.com signed it (ssh-keygen -Y verify -I)",
      command: "kubectl ptah plan --verify -f plan.json --allowed-signers allowed_signers --signer alice@example.com",
    },
    { comment: "A summary to paste into a pull request or a ticket (GitHub-flavoured Markdown)", command: "kubectl ptah plan storefront -o markdown" },
    { comment: "What each statement locks, what that blocks and for how long, under the schema's transactionMode", command: "kubectl ptah plan storefront --locks" },
  ],
  flags: [
    { name: "current", type: "boolean", describe: "The plan the operator would run next (the default)" },
    {
      name: "applied",
      type: "boolean",
      describe: "The plan the last confirmed apply ran: the stored plan it was approved for, not a log of what each statement did",
    },
    { name: "statements", type: "boolean", describe: "Add a table of statements (#, severity, reason, first line of SQL) to the text view" },
    {
      name: "locks",
      type: "boolean",
      describe: "Add each statement's lock impact (#, locks, blocks, holds, finding) and the transaction's summary; with -o json|yaml, print them instead of the plan",
    },
    {
      name: "verify",
      type: "boolean",
      describe: "Verify the plan and print a report of every check instead of its SQL; exit 0 when all held, 1 otherwise",
    },
    { name: "plan", type: "string", value: "NAME", describe: "A retained plan of the schema by name (see kubectl ptah plans), with every check the current one gets" },
    { name: "export", type: "string", value: "FILE", describe: "Write the verified plan to a new file that plan --verify -f re-verifies offline; prints nothing of the plan" },
    { name: "filename", alias: "f", type: "string", value: "FILE", describe: "With --verify: an export file to verify offline, instead of a schema's plan" },
    { name: "sign", type: "string", value: "KEY", describe: "With --export: sign the file with this unencrypted OpenSSH private key, to FILE.sig (namespace kubectl-ptah-plan)" },
    {
      name: "allowed-signers",
      type: "string",
      value: "FILE",
      describe: "With --verify -f: check the export's SSH signature against this allowed signers file (ssh-keygen's format) and name the signer",
    },
    { name: "signature", type: "string", value: "SIGFILE", describe: "With --allowed-signers: the signature to check, instead of the export's FILE.sig" },
    {
      name: "signer",
      type: "string",
      value: "PRINCIPAL",
      describe: "With --allowed-signers: exit 1 unless this principal signed, by a key the file lists for it (ssh-keygen -Y verify's -I)",
    },
  ],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers"],

  permissions: [
    {
      form: "plan SCHEMA",
      argv: ["plan", "storefront"],
      rules: ptah("get", "ptahschemas", "ptahschemaplans", "ptahschemaplanchunks"),
      note: "older installs: get `configmaps`, list `ptahschemaplans` for applied records without `planRef`",
    },
  ],
  toOptions(args) {
    const file = typeof args.flags.filename === "string" ? args.flags.filename : undefined;
    if (file !== undefined) return fileOptions(args.positionals, args.flags, args.global.output, file);
    if (args.positionals.length !== 1) throw new UsageError("name one PtahSchema", "plan");
    const current = args.flags.current === true;
    const applied = args.flags.applied === true;
    if (current && applied) throw new UsageError("--current and --applied are two different plans; ask for one", "plan");
    const named = typeof args.flags.plan === "string" ? args.flags.plan : undefined;
    if (named !== undefined && (current || applied)) throw new UsageError(`--plan names one plan; drop --${current ? "current" : "applied"}`, "plan");
    if (named === "") throw new UsageError("--plan needs the name of a stored plan (kubectl ptah plans lists them)", "plan");
    const output = declaredOutput(args, PLAN_FORMATS, "plan") ?? "text";
    if (args.global.allNamespaces) throw new UsageError("a plan is read from one namespace; drop --all-namespaces", "plan");
    const statements = args.flags.statements === true;
    const verify = args.flags.verify === true;
    const locks = args.flags.locks === true;
    if (verify && (output !== "text" || statements || locks)) {
      throw new UsageError("--verify prints a report, not the plan; it takes no -o, --statements or --locks", "plan");
    }
    if (locks && output !== "text" && output !== "json" && output !== "yaml") {
      throw new UsageError(`--locks belongs to the text, json and yaml views; it cannot be combined with -o ${output}`, "plan");
    }
    if (statements && output !== "text") {
      throw new UsageError(`--statements belongs to the text view; it cannot be combined with -o ${output}`, "plan");
    }
    const exportTo = typeof args.flags.export === "string" ? args.flags.export : undefined;
    if (exportTo === "") throw new UsageError("--export needs the name of a file to create", "plan");
    if (exportTo !== undefined && (verify || statements || locks || args.global.output !== undefined)) {
      throw new UsageError("--export writes a file and prints one line; it takes no -o, --statements, --locks or --verify", "plan");
    }
    const sign = typeof args.flags.sign === "string" ? args.flags.sign : undefined;
    if (sign !== undefined && exportTo === undefined) throw new UsageError("--sign signs an export; add --export FILE", "plan");
    if (sign === "") throw new UsageError("--sign needs the name of an OpenSSH private key file", "plan");
    const checking = ["allowed-signers", "signature", "signer"].find((f) => args.flags[f] !== undefined);
    if (checking) throw new UsageError(`--${checking} checks the signature of an export; it belongs with --verify -f FILE`, "plan");
    const selection: PlanChoice = named !== undefined ? { kind: "named", plan: named } : { kind: applied ? "applied" : "current" };
    return { schema: args.positionals[0]!, selection, output, statements, verify, locks, exportTo, file: undefined, signing: { key: sign } };
  },

  async run(options, ctx) {
    // The export's module brings the model's parser: loaded only when asked for.
    if (options.file !== undefined) return (await import("./plan-export.ts")).verifyExportFile(options.file, options.signing, ctx);
    // An export reads its signing key before it connects: a key it cannot use refuses first.
    if (options.exportTo !== undefined) return (await import("./plan-export.ts")).exportPlan(options.schema, options.selection, options.exportTo, options.signing, ctx);
    const { reader, namespace } = await ctx.connect();
    // --locks: the parser's WebAssembly compiles off the main thread while the plan is read. A load
    // that fails is not lost: the analysis asks for the same load and says "not analysed" with why.
    if (options.locks) void import("../../locks/index.ts").then((m) => m.preloadParser()).catch(() => undefined);
    const log = new CheckLog();
    const label = selectionLabel(options.selection);
    let verified;
    try {
      verified = await loadChosen(reader, namespace, options.schema, options.selection, log);
    } catch (err) {
      // --verify refuses with its report: every check made, the failed one last (like
      // `kubectl diff`, which prints the difference and exits 1). No plan content is in it.
      if (options.verify && err instanceof PtahError) {
        const report = renderVerifyReport({ namespace, schemaName: options.schema, selection: options.selection.kind, subject: label, checks: log.results });
        return { kind: "refused", error: err, report };
      }
      throw err;
    }
    if (options.verify) {
      return { kind: "printed", stdout: renderVerifyReport({ namespace, schemaName: options.schema, selection: options.selection.kind, subject: label, checks: verified.checks }) };
    }
    // The header's Destructive line is the plan's own flag, as upstream prints it; SQL that reads
    // as destructive although the plan does not record it is said on stderr, whatever the format.
    const stderr = verified.document.destructiveRead && verified.plan.object.spec.destructive !== true ? undestructiveWarning(verified.plan.object.metadata.name) : undefined;
    // Lock impact is analysed only where it is shown: the analyser and its parser load here.
    const report = options.locks || options.output === "markdown" ? await (await import("../shared/lock-impact.ts")).analysePlan(verified) : undefined;
    const lockSection = report && !options.locks ? (await import("../shared/lock-markdown.ts")).lockSection(report) : undefined;
    const stdout = report && options.locks ? await renderLocks(verified, report, options, ctx) : renderVerified(verified, options, ctx, lockSection);
    return { kind: "printed", stdout, ...(stderr ? { stderr } : {}) };
  },
};

/** `plan --verify -f FILE`: nothing else is asked for, and no schema is named (the file names it). */
function fileOptions(positionals: readonly string[], flags: Readonly<Record<string, unknown>>, output: string | undefined, file: string): PlanOptions {
  if (file === "") throw new UsageError("-f needs the name of an export file", "plan");
  if (flags.verify !== true) throw new UsageError("-f reads an export to verify it; add --verify", "plan");
  if (positionals.length > 0) throw new UsageError("an export names its own schema; drop the schema name, or drop -f", "plan");
  const others = ["current", "applied", "statements", "locks"].filter((f) => flags[f] === true).concat(["plan", "export", "sign"].filter((f) => flags[f] !== undefined));
  if (others.length > 0 || output !== undefined) throw new UsageError(`--verify -f checks an export file and takes no ${others.length > 0 ? `--${others[0]}` : "-o"}`, "plan");
  const [allowedSigners, signature, signer] = ["allowed-signers", "signature", "signer"].map((f) => (typeof flags[f] === "string" ? (flags[f] as string) : undefined));
  if (allowedSigners === "" || signature === "") throw new UsageError(`--${allowedSigners === "" ? "allowed-signers" : "signature"} needs the name of a file`, "plan");
  if (signer === "") throw new UsageError("--signer needs the principal that must have signed, as the allowed signers file names it", "plan");
  const unchecked = signature !== undefined ? "signature" : signer !== undefined ? "signer" : undefined;
  if (unchecked && allowedSigners === undefined) throw new UsageError(`--${unchecked} is checked against an allowed signers file; add --allowed-signers FILE`, "plan");
  const signing = { allowedSigners, signature, signer };
  return { schema: "", selection: { kind: "current" }, output: "text", statements: false, verify: true, locks: false, exportTo: undefined, file, signing };
}

function undestructiveWarning(planName: string): string {
  return `Warning: the SQL of ${planName} reads as destructive (read by this plugin), but the plan does not record it as destructive\n`;
}

/** --locks: the text view with the lock table after the header (and --statements' table), or the report as json|yaml. */
async function renderLocks(verified: VerifiedPlan, report: LockReport, options: PlanOptions, ctx: RunContext): Promise<string> {
  const [{ lockObject }, { renderLockTable }] = await Promise.all([import("./plan-locks.ts"), import("../shared/lock-table.ts")]);
  if (options.output === "json") return ctx.isTTY ? escapeJsonText(formatJson(lockObject(verified, report), 2)) : formatJson(lockObject(verified, report), 2);
  if (options.output === "yaml") return formatYaml(lockObject(verified, report));
  const width = ctx.isTTY ? ctx.width : 0;
  return renderPlanText(verified, { statements: options.statements, width, locks: renderLockTable(report, width) });
}

function renderVerified(verified: VerifiedPlan, options: PlanOptions, ctx: RunContext, lockSection?: string): string {
  const { isTTY, width } = ctx;
  switch (options.output) {
    case "text":
      return renderPlanText(verified, { statements: options.statements, width: isTTY ? width : 0 });
    case "sql": {
      // Byte-exact when piped (scripts feed it to a database client); on a terminal, control
      // characters are made visible so that no statement can be hidden from the reader.
      const sql = renderPlanSql(verified.document);
      return isTTY ? sanitizeSqlForTerminal(sql) : sql;
    }
    case "json": {
      // The stored bytes when piped (they hash to the content digest); on a terminal, the same
      // JSON with DEL, C1 and bidi controls escaped, as -o sql makes control characters visible.
      const json = renderPlanJson(verified.documentBytes);
      return isTTY ? escapeJsonText(json) : json;
    }
    case "yaml":
      return formatYaml(verified.document.value);
    case "markdown":
      return renderPlanMarkdown(verified, { version: ctx.version, now: ctx.now, ...(lockSection !== undefined ? { lockSection } : {}) });
  }
}
