// The MCP server's tools as data: each is one of the plugin's read commands, its arguments a
// closed zod shape that becomes exactly one command line. A tool call never names a kubeconfig,
// context, cluster, user or server (those are the server's own flags, fixed at its start) and
// never a flag of the command's beyond those listed here: names are Kubernetes names, so no
// value can be read as a flag, and the positionals follow `--` all the same. `approve` itself,
// its `--dry-run=server`, `doctor --probe` and every watch are not tools: the dry-run create is
// the one request here that asks admission anything, and an assistant must never be the one who
// approves (the webhook records whoever creates an approval as the approver). Nor are `endorse`
// (an endorsement counts only as the endorser's own write) and `policy render` (an administrator's
// manifest, no state): the approval policies' read-back reaches the assistant through status and
// inbox, which print Endorsed and Window when policies are bound.
import { z } from "zod";

/** A Kubernetes object name (DNS-1123 subdomain): never starts with "-", so never a flag. */
const NAME = z
  .string()
  .max(253)
  .regex(/^[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?$/u, "a Kubernetes name: lower-case letters, digits, '-' and '.'");
/** A namespace (DNS-1123 label). */
const NAMESPACE = z
  .string()
  .max(63)
  .regex(/^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$/u, "a namespace: lower-case letters, digits and '-'");
/** kubectl's label selector, passed as one `--selector=…` word. */
const SELECTOR = z.string().min(1).max(1024).describe("A label selector, as kubectl's -l (e.g. app=shop)");
/** An explain topic word: a condition type, reason, phase, state, kind or object name. */
const WORD = z
  .string()
  .max(253)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/=-]*$/u, "a topic word: letters, digits and . _ : / = -");

const namespace = NAMESPACE.optional().describe("The namespace (default: the one the server was started with, else the context's)");
const allNamespaces = z.boolean().optional().describe("Every namespace (kubectl's -A)");
const page = z.number().int().min(1).max(100_000).optional().describe("Page of a long text answer (1 is the first); the answer says how many there are");
const schema = NAME.describe("The PtahSchema's name");
const migration = NAME.describe("The PtahMigration's name");

export const TOOL_SHAPES = {
  status: { schema: schema.optional(), namespace, allNamespaces, selector: SELECTOR.optional(), page },
  schema: { schema, namespace, page },
  plan: {
    schema,
    namespace,
    applied: z.boolean().optional().describe("The plan the last confirmed apply ran, instead of the current plan"),
    plan: NAME.optional().describe("A retained plan by name (see the plans tool), instead of the current plan"),
    locks: z.boolean().optional().describe("The lock impact of every statement (modes, what they block, for how long, findings) and of the whole transaction, before the SQL"),
    page,
  },
  plans: {
    schema: schema.optional(),
    migration: migration.optional(),
    namespace,
    allNamespaces,
    unpinned: z.boolean().optional().describe("Only the plans nothing references"),
    page,
  },
  diff: {
    schema,
    namespace,
    from: z
      .string()
      .regex(/^(?:applied|(?:approval|plan)\/[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)$/u, "applied, approval/NAME or plan/NAME")
      .optional()
      .describe("The old side: applied, approval/NAME or plan/NAME (default: the last approval's plan)"),
    to: z
      .string()
      .regex(/^(?:current|plan\/[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)$/u, "current or plan/NAME")
      .optional()
      .describe("The new side: current or plan/NAME (default: current)"),
    page,
  },
  approvals: { schema: schema.optional(), migration: migration.optional(), namespace, allNamespaces, selector: SELECTOR.optional(), page },
  ledger: { schema: schema.optional(), migration: migration.optional(), namespace, allNamespaces, selector: SELECTOR.optional(), page },
  inbox: {
    namespace,
    allNamespaces,
    locks: z.boolean().optional().describe("Add each waiting schema plan's strongest lock and what it blocks (reads each plan)"),
    page,
  },
  history: { schema: schema.optional(), migration: migration.optional(), namespace, page },
  migration: { migration, namespace, page },
  explain: {
    topic: z
      .array(WORD)
      .max(4)
      .optional()
      .describe(
        'The topic\'s words: a condition type, reason, phase or approval state (e.g. ["stale"]), a schema\'s name, or ["migration", NAME] / ["approval", NAME]; none lists the topics',
      ),
    namespace,
    page,
  },
  doctor: { namespace, page },
  approval_command: { schema: schema.optional(), migration: migration.optional(), namespace },
} as const;

export type ToolName = keyof typeof TOOL_SHAPES;
export type ToolArgs<N extends ToolName> = z.infer<z.ZodObject<(typeof TOOL_SHAPES)[N]>>;
/** Every tool's arguments, read loosely (each field is checked by its tool's shape first). */
export interface AnyArgs {
  readonly schema?: string;
  readonly migration?: string;
  readonly namespace?: string;
  readonly allNamespaces?: boolean;
  readonly selector?: string;
  readonly applied?: boolean;
  readonly plan?: string;
  readonly unpinned?: boolean;
  readonly locks?: boolean;
  readonly from?: string;
  readonly to?: string;
  readonly topic?: readonly string[];
  readonly page?: number;
}

export const DESCRIPTIONS: Readonly<Record<ToolName, string>> = {
  status:
    "Lists PtahSchemas and PtahMigrations with phase, readiness, plan and approval state, or shows one schema in detail with every condition and the exact next command a person should run. Start here for 'why is X stuck?'.",
  schema: "Shows one PtahSchema as upstream's kubectl-ptah does: phase, source, drift, conditions and the current plan.",
  plan: "Shows the SQL of a schema's current (or applied, or a named retained) plan, only after verifying its chunks, digests and fingerprint; refuses a plan that does not verify. With locks: what each statement will lock in PostgreSQL and what that blocks, from the statements alone (the plugin never connects to the database and knows no table sizes).",
  plans: "Lists the stored plans of schemas and migrations and every reference that keeps each one (pins); with unpinned, only those nothing references.",
  diff: "Shows what changed between two plans of a schema (by default: since the plan last approved): the fingerprint inputs that moved and the statements added or removed.",
  approvals: "Lists approvals with their derived state (Pending, Reserved, Consumed, Stale, Superseded) and the plan each binds.",
  ledger: "The audit record: who approved which exact plan fingerprint, when, and whether it was consumed, applied or retired.",
  inbox: "What waits for a person: plans awaiting approval, runs awaiting acknowledgment, destructive plans blocked by policy, and whether the caller may approve each.",
  history: "The condition history and events of a schema or migration, with its plans and approvals, in time order.",
  migration: "Shows one PtahMigration: its history, the planned sequence, the last run and what blocks it.",
  explain:
    "Explains a condition type, reason, phase or approval state offline, or a live schema, migration or approval (what it means and what to do next). No topic: the list of topics.",
  doctor: "Checks that the cluster, the operator and the caller's account are ready for the approval workflow (API, CRDs, webhooks, permissions), and says what to fix.",
  approval_command:
    "Returns the exact command a PERSON runs to approve a schema's or migration's current plan, with the plan's name, UID and fingerprint after verifying it. This server never approves and has no tool that creates anything: hand the command to the user and let them decide; do not run it yourself.",
};

/** A tool call as one command line of the plugin: the verb, its flags, then `--` and the positionals. */
export function commandLine(tool: ToolName, args: AnyArgs, output: string | undefined): string[] {
  const flags: string[] = [];
  if (args.namespace !== undefined) flags.push(`--namespace=${args.namespace}`);
  if (args.allNamespaces === true) flags.push("--all-namespaces");
  if (args.selector !== undefined) flags.push(`--selector=${args.selector}`);
  if (output !== undefined) flags.push(`--output=${output}`);
  const positionals: string[] = [];
  const target = (): void => {
    if (args.schema !== undefined && args.migration !== undefined) throw new ArgumentError("name a schema or a migration, not both");
    if (args.migration !== undefined) positionals.push("migration", args.migration);
    else if (args.schema !== undefined) positionals.push(args.schema);
  };
  let verb: string = tool;
  switch (tool) {
    case "status":
    case "schema":
    case "diff":
      if (args.schema !== undefined) positionals.push(args.schema);
      if (args.from !== undefined) flags.push(`--from=${args.from}`);
      if (args.to !== undefined) flags.push(`--to=${args.to}`);
      break;
    case "plan":
      if (args.applied === true && args.plan !== undefined) throw new ArgumentError("name applied or a plan, not both");
      if (args.applied === true) flags.push("--applied");
      if (args.plan !== undefined) flags.push(`--plan=${args.plan}`);
      if (args.locks === true) flags.push("--locks");
      positionals.push(args.schema!);
      break;
    case "plans":
      if (args.unpinned === true) flags.push("--unpinned");
      target();
      break;
    case "approvals":
    case "ledger":
      target();
      break;
    case "history":
    case "approval_command":
      target();
      if (positionals.length === 0) throw new ArgumentError("name a schema or a migration");
      if (tool === "approval_command") verb = "approve";
      break;
    case "migration":
      positionals.push(args.migration!);
      break;
    case "explain":
      positionals.push(...(args.topic ?? []));
      break;
    case "inbox":
      if (args.locks === true) flags.push("--locks");
      break;
    case "doctor":
      break;
  }
  return [verb, ...flags, "--", ...positionals];
}

/** The tool's arguments do not make one command line (an MCP tool error, as a usage error is). */
export class ArgumentError extends Error {}

/** The -o a tool's structured answer is read with, and the one its text is (undefined: the command's default). */
export const OUTPUTS: Readonly<Record<ToolName, { readonly json: string; readonly text: string | undefined }>> = {
  status: { json: "json", text: undefined },
  schema: { json: "json", text: "text" },
  plan: { json: "json", text: "text" },
  plans: { json: "json", text: undefined },
  diff: { json: "json", text: "text" },
  approvals: { json: "json", text: undefined },
  ledger: { json: "json", text: undefined },
  inbox: { json: "json", text: undefined },
  history: { json: "json", text: undefined },
  migration: { json: "json", text: "text" },
  explain: { json: "json", text: undefined },
  doctor: { json: "json", text: undefined },
  approval_command: { json: "json", text: undefined },
};
