// The shell's registry (issue 30): every command's header (commands/headers.ts) at once, and
// its declaration loaded only when the line names it. A start then initialises the code of the
// command it runs, not all seventeen (js-yaml, jsonpath-plus, cli-table3 and explain's knowledge
// load with the commands that use them). Each loader is a dynamic import, so esbuild gives every
// command a chunk of its own; commands/index.ts is the same list, loaded eagerly (tests, doctor's
// permission check, the single binary's startup snapshot).
import { COMMAND_HEADERS, type CommandHeader, type CommandName } from "./headers.ts";
import type { AnyCommand, Registry } from "./types.ts";
import type { Diagnose } from "./explain.ts";

/** The commands a shell runs with: their headers now, a declaration when asked. */
export interface CommandSet {
  /** Every command's header, in the root help's order. */
  readonly headers: readonly CommandHeader[];
  /** The declaration of the command called `word`, or undefined when none is. */
  load(word: string): Promise<AnyCommand | undefined>;
  /** Every declaration, in order (doctor's permission check). */
  all(): Promise<Registry>;
}

// explain loads the live diagnosis (the connection's readers) only when it explains an object.
const diagnoseLive: Diagnose = (words, ctx) => import("./reads/explain-live.ts").then((m) => m.diagnoseLive(words, ctx));

const LOADERS: Record<CommandName, () => Promise<AnyCommand>> = {
  status: () => import("./status.ts").then((m) => m.statusCommand),
  schema: () => import("./schema.ts").then((m) => m.schemaCommand),
  plan: () => import("./plan.ts").then((m) => m.planCommand),
  plans: () => import("./plans.ts").then((m) => m.plansCommand),
  diff: () => import("./diff.ts").then((m) => m.diffCommand),
  migration: () => import("./migration.ts").then((m) => m.migrationCommand),
  approve: () => import("./approve.ts").then((m) => m.approveCommand),
  approvals: () => import("./approvals.ts").then((m) => m.approvalsCommand),
  ledger: () => import("./ledger.ts").then((m) => m.ledgerCommand),
  inbox: () => import("./inbox.ts").then((m) => m.inboxCommand),
  acknowledge: () => import("./acknowledge.ts").then((m) => m.acknowledgeCommand),
  history: () => import("./history.ts").then((m) => m.historyCommand),
  wait: () => import("./wait.ts").then((m) => m.waitCommand),
  explain: () => import("./explain.ts").then((m) => m.makeExplainCommand(diagnoseLive)),
  doctor: () => import("./doctor.ts").then((m) => m.doctorCommand),
  mcp: () => import("./mcp.ts").then((m) => m.mcpCommand),
  version: () => import("./version.ts").then((m) => m.versionCommand),
  completion: () => import("./completion.ts").then((m) => m.completionCommand),
};

function isCommandName(word: string): word is CommandName {
  return Object.hasOwn(LOADERS, word);
}

const loaded = new Map<CommandName, Promise<AnyCommand>>();

function loadByName(name: CommandName): Promise<AnyCommand> {
  let command = loaded.get(name);
  if (!command) loaded.set(name, (command = LOADERS[name]()));
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
