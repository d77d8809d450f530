// The one list of commands, one line each: its name, the line the root help gives it, and the
// loader of its declaration (commands/<name>/); upstream's three add their place and usage
// (commands/<name>/<name>-upstream.ts). A start loads only the running command's code: the loaders are dynamic
// imports, so esbuild gives each command a chunk of its own, and the headers here are all the root
// help, usage errors and completion of command names need. The order is the root help's.
// Adding a command is one folder under commands/ and one line here (test/architecture.test.ts).
// commands/all-commands.ts loads every declaration at once (tests, the reference docs).
import type { AnyCommand, AnyCommandBody, Command, Registry } from "./command-types.ts";
import type { Diagnose } from "./explain/explain-command.ts";
import { MIGRATION_UPSTREAM } from "./migration/migration-upstream.ts";
import { PLAN_UPSTREAM } from "./plan/plan-upstream.ts";
import { SCHEMA_UPSTREAM } from "./schema/schema-upstream.ts";

/** What the shell knows of a command before loading it. */
export type CommandHeader = Pick<Command, "name" | "summary" | "upstreamRank" | "rootUsage" | "upstreamUsage">;

interface Entry extends Omit<CommandHeader, "name"> {
  /** The command's declaration: its grammar, toOptions and run (its header is the entry's). */
  readonly load: () => Promise<AnyCommandBody>;
}

// explain loads the live diagnosis (the connection's readers) only when it explains an object.
const diagnoseLive: Diagnose = (words, ctx) => import("./explain/explain-live.ts").then((m) => m.diagnoseLive(words, ctx));

// One line per command (prettier would fold each entry over several).
// prettier-ignore
const REGISTRY = {
  status: { summary: "Show every PtahSchema and PtahMigration, or one schema in detail, with what to do next", load: () => import("./status/status-command.ts").then((m) => m.statusCommand) },
  schema: { summary: "Show one PtahSchema as upstream's kubectl-ptah does: phase, source, drift, conditions, plan", ...SCHEMA_UPSTREAM, load: () => import("./schema/schema-command.ts").then((m) => m.schemaCommand) },
  plan: { summary: "Print the SQL of a schema's current or applied plan, after verifying every stored piece", ...PLAN_UPSTREAM, load: () => import("./plan/plan-command.ts").then((m) => m.planCommand) },
  plans: { summary: "List stored plans and every reference that pins them; --unpinned for those nothing names", load: () => import("./plans/plans-command.ts").then((m) => m.plansCommand) },
  diff: { summary: "Show what changed between two plans of a schema: fingerprint inputs and statements", load: () => import("./diff/diff-command.ts").then((m) => m.diffCommand) },
  migration: { summary: "Show a PtahMigration: history, the planned sequence, the last run and what blocks it", ...MIGRATION_UPSTREAM, load: () => import("./migration/migration-command.ts").then((m) => m.migrationCommand) },
  approve: { summary: "Print an approval bound to the live, verified plan, to pipe into kubectl create -f -", load: () => import("./approve/approve-command.ts").then((m) => m.approveCommand) },
  endorse: { summary: "Print the one kubectl command that endorses a schema's verified current plan as you", load: () => import("./endorse/endorse-command.ts").then((m) => m.endorseCommand) },
  approvals: { summary: "List approvals with their derived state: Pending, Reserved, Consumed, Stale or Superseded", load: () => import("./approvals/approvals-command.ts").then((m) => m.approvalsCommand) },
  ledger: { summary: "Who approved which exact plan, when, and whether it was consumed, applied or retired", load: () => import("./ledger/ledger-command.ts").then((m) => m.ledgerCommand) },
  inbox: { summary: "What waits for a person: approvals, run acknowledgments, blocked destructive plans", load: () => import("./inbox/inbox-command.ts").then((m) => m.inboxCommand) },
  acknowledge: { summary: "Print an acknowledgment that settles a migration's unresolved Partial or Unknown run", load: () => import("./acknowledge/acknowledge-command.ts").then((m) => m.acknowledgeCommand) },
  policy: { summary: "Print the ValidatingAdmissionPolicies that enforce endorsements, change windows and freezes", load: () => import("./policy/policy-command.ts").then((m) => m.policyCommand) },
  history: { summary: "Show the condition history and events of a schema or migration, its plans and approvals", load: () => import("./history/history-command.ts").then((m) => m.historyCommand) },
  wait: { summary: "Wait until a schema or migration reaches a condition, phase or approval state", load: () => import("./wait/wait-command.ts").then((m) => m.waitCommand) },
  explain: { summary: "Explain a condition, reason, phase or approval state, and what to do next", load: () => import("./explain/explain-command.ts").then((m) => m.makeExplainCommand(diagnoseLive)) },
  doctor: { summary: "Check that this machine, cluster, operator and account are ready for the approval workflow", load: () => import("./doctor/doctor-command.ts").then((m) => m.doctorCommand) },
  mcp: { summary: "Serve the read commands to an AI assistant over the Model Context Protocol (stdio); never approves", load: () => import("./mcp/mcp-command.ts").then((m) => m.mcpCommand) },
  version: { summary: "Print the plugin's version, the server's version and which Ptah kinds it serves", load: () => import("./version/version-command.ts").then((m) => m.versionCommand) },
  completion: { summary: "Print a shell completion script (bash, zsh, fish) or kubectl's plugin completion helper", load: () => import("./completion/completion-command.ts").then((m) => m.completionCommand) },
} as const satisfies Record<string, Entry>;

export type CommandName = keyof typeof REGISTRY;

/** Every command's header, in the root help's order. */
export const COMMAND_HEADERS: readonly CommandHeader[] = Object.entries(REGISTRY).map(([name, { load: _load, ...h }]) => ({ name, ...h }));

/** The commands a shell runs with: their headers now, a declaration when asked. */
export interface CommandSet {
  /** Every command's header, in the root help's order. */
  readonly headers: readonly CommandHeader[];
  /** The declaration of the command called `word`, or undefined when none is. */
  load(word: string): Promise<AnyCommand | undefined>;
  /** Every declaration, in order (doctor's permission check). */
  all(): Promise<Registry>;
}

function isCommandName(word: string): word is CommandName {
  return Object.hasOwn(REGISTRY, word);
}

const loaded = new Map<CommandName, Promise<AnyCommand>>();

function loadByName(name: CommandName): Promise<AnyCommand> {
  let command = loaded.get(name);
  if (!command) {
    const { load, ...header } = REGISTRY[name];
    loaded.set(name, (command = load().then((body): AnyCommand => ({ name, ...header, ...body }))));
  }
  return command;
}

/** The shell's default: headers now, each declaration on first use. */
export const LAZY_COMMANDS: CommandSet = {
  headers: COMMAND_HEADERS,
  load: async (word) => (isCommandName(word) ? loadByName(word) : undefined),
  all: () => Promise.all(COMMAND_HEADERS.map((h) => loadByName(h.name as CommandName))),
};

/** A registry given whole (a test's own commands): every declaration is already there. */
export function registrySet(commands: Registry): CommandSet {
  return {
    headers: commands,
    load: async (word) => commands.find((c) => c.name === word),
    all: async () => commands,
  };
}
