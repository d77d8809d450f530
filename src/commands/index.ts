// Every command, loaded at once, in the root help's order: tests, and the single binary's
// startup snapshot, which holds them all initialised. The shell itself loads one command at a
// time (commands/lazy.ts). Adding a command is one file that exports its Command (grammar,
// toOptions, run), its header in commands/headers.ts, its loader in commands/lazy.ts and one line
// here; help, usage errors and completion follow (test/cli/registry.test.ts checks the lists agree).
import type { AnyCommand, Registry } from "./types.ts";
import { acknowledgeCommand } from "./acknowledge.ts";
import { approvalsCommand } from "./approvals.ts";
import { approveCommand } from "./approve.ts";
import { completionCommand } from "./completion.ts";
import { diffCommand } from "./diff.ts";
import { doctorCommand } from "./doctor.ts";
import { makeExplainCommand } from "./explain.ts";
import { diagnoseLive } from "./reads/explain-live.ts";
import { historyCommand } from "./history.ts";
import { inboxCommand } from "./inbox.ts";
import { ledgerCommand } from "./ledger.ts";
import { mcpCommand } from "./mcp.ts";
import { migrationCommand } from "./migration.ts";
import { planCommand } from "./plan.ts";
import { plansCommand } from "./plans.ts";
import { schemaCommand } from "./schema.ts";
import { statusCommand } from "./status.ts";
import { versionCommand } from "./version.ts";
import { waitCommand } from "./wait.ts";

export const COMMANDS: readonly AnyCommand[] = [
  statusCommand,
  schemaCommand,
  planCommand,
  plansCommand,
  diffCommand,
  migrationCommand,
  approveCommand,
  approvalsCommand,
  ledgerCommand,
  inboxCommand,
  acknowledgeCommand,
  historyCommand,
  waitCommand,
  makeExplainCommand(diagnoseLive),
  doctorCommand,
  mcpCommand,
  versionCommand,
  completionCommand,
];

export function findCommand(word: string, commands: Registry = COMMANDS): AnyCommand | undefined {
  return commands.find((c) => c.name === word);
}
