// `kubectl ptah plan <schema>`: upstream's plan command (go-client §1.3), verified before
// anything is printed, plus -o yaml, --statements and --verify. Reads: get schema → get plan →
// get each chunk (no list, except for an older applied record without planRef).
import { PtahError, UsageError } from "../errors.ts";
import { loadVerifiedPlan, type VerifiedPlan } from "../plan/load.ts";
import type { PlanSelection } from "../plan/select.ts";
import { CheckLog } from "../plan/verify.ts";
import { escapeJsonText, formatYaml } from "../render/formats.ts";
import { renderPlanJson, renderPlanSql, sanitizeSqlForTerminal } from "../views/plan.ts";
import { renderPlanText, renderVerifyReport } from "./render/plan.ts";
import { renderPlanMarkdown } from "./render/markdown.ts";
import { SCHEMA } from "./options/candidates.ts";
import type { Command, RunContext } from "./types.ts";

export const PLAN_FORMATS = ["text", "sql", "json", "yaml", "markdown"] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

export interface PlanOptions {
  readonly schema: string;
  readonly selection: PlanSelection;
  readonly output: PlanFormat;
  readonly statements: boolean;
  readonly verify: boolean;
}

function isPlanFormat(o: string): o is PlanFormat {
  return (PLAN_FORMATS as readonly string[]).includes(o);
}

export const planCommand: Command<PlanOptions> = {
  name: "plan",
  summary: "Print the SQL of a schema's current or applied plan, after verifying every stored piece",
  usage: "kubectl ptah plan <schema> [--current|--applied] [-o text|sql|json|yaml|markdown] [--statements] [--verify]",
  positionals: [SCHEMA],
  outputs: PLAN_FORMATS,
  upstreamRank: 0,
  rootUsage: "kubectl ptah plan <schema> [--current|--applied] [-o text|sql|json|yaml]",
  // Upstream's pinned lines (go-client §10.1), exactly; -o yaml, --statements and --verify are ours.
  upstreamUsage: [
    "usage: kubectl ptah plan <schema> [--current|--applied] [-o text|sql|json|yaml] [--statements] [--verify]",
    "",
    "  --current              the plan the operator would run next (the default)",
    "  --applied              the plan the last confirmed apply ran",
    "  -o, --output FORMAT    text (header and SQL), sql, json (the stored plan document), or yaml (ours)",
    "",
    "The applied plan is the stored plan the last confirmed apply ran, exactly as it was approved;",
    "it is not a log of what each statement did.",
  ],
  examples: [
    { comment: "The plan the operator would run next, with its header", command: "kubectl ptah plan storefront -n app" },
    { comment: "The SQL the last confirmed apply ran, as a file", command: "kubectl ptah plan storefront --applied -n app -o sql > plan.sql" },
    { comment: "The stored plan document; it hashes to the plan's content digest", command: "kubectl ptah plan storefront -o json" },
    { comment: "Each statement's severity and reason next to its first line", command: "kubectl ptah plan storefront --statements" },
    { comment: "A CI gate: verify every check, print the report, exit 1 if any fails", command: "kubectl ptah plan storefront --verify" },
    { comment: "A summary to paste into a pull request or a ticket (GitHub-flavoured Markdown)", command: "kubectl ptah plan storefront -o markdown" },
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
      name: "verify",
      type: "boolean",
      describe: "Verify the plan and print a report of every check instead of its SQL; exit 0 when all held, 1 otherwise",
    },
  ],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers"],

  toOptions(args) {
    if (args.positionals.length !== 1) throw new UsageError("name one PtahSchema", "plan");
    const current = args.flags.current === true;
    const applied = args.flags.applied === true;
    if (current && applied) throw new UsageError("--current and --applied are two different plans; ask for one", "plan");
    const output = args.global.output ?? "text";
    if (!isPlanFormat(output)) {
      throw new UsageError(`unknown output format "${output}"; it is one of [${PLAN_FORMATS.join(" ")}]`, "plan");
    }
    if (args.global.allNamespaces) throw new UsageError("a plan is read from one namespace; drop --all-namespaces", "plan");
    const statements = args.flags.statements === true;
    const verify = args.flags.verify === true;
    if (verify && (output !== "text" || statements)) {
      throw new UsageError("--verify prints a report, not the plan; it takes no -o and no --statements", "plan");
    }
    if (statements && output !== "text") {
      throw new UsageError(`--statements belongs to the text view; it cannot be combined with -o ${output}`, "plan");
    }
    return { schema: args.positionals[0]!, selection: applied ? "applied" : "current", output, statements, verify };
  },

  async run(options, ctx) {
    const { reader, namespace } = await ctx.connect();
    const log = new CheckLog();
    let verified;
    try {
      verified = await loadVerifiedPlan(reader, namespace, options.schema, options.selection, { log });
    } catch (err) {
      // --verify refuses with its report: every check made, the failed one last (like
      // `kubectl diff`, which prints the difference and exits 1). No plan content is in it.
      if (options.verify && err instanceof PtahError) {
        const report = renderVerifyReport({ namespace, schemaName: options.schema, selection: options.selection, checks: log.results });
        return { kind: "refused", error: err, report };
      }
      throw err;
    }
    if (options.verify) {
      return { kind: "printed", stdout: renderVerifyReport({ namespace, schemaName: options.schema, selection: options.selection, checks: verified.checks }) };
    }
    // The header's Destructive line is the plan's own flag, as upstream prints it; SQL that reads
    // as destructive although the plan does not record it is said on stderr, whatever the format.
    const stderr = verified.document.destructiveRead && verified.plan.object.spec.destructive !== true ? undestructiveWarning(verified.plan.object.metadata.name) : undefined;
    return { kind: "printed", stdout: renderVerified(verified, options, ctx), ...(stderr ? { stderr } : {}) };
  },
};

function undestructiveWarning(planName: string): string {
  return `Warning: the SQL of ${planName} reads as destructive (read by this plugin), but the plan does not record it as destructive\n`;
}

function renderVerified(verified: VerifiedPlan, options: PlanOptions, ctx: RunContext): string {
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
      return renderPlanMarkdown(verified, { version: ctx.version, now: ctx.now });
  }
}
