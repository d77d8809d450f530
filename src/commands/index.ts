// The registry: an explicit, ordered list of commands (no directory scanning, so the
// single-file bundle holds them all).
import type { AnyCommand } from "./types.ts";
import { approvalsCommand } from "./approvals.ts";
import { historyCommand } from "./history.ts";
import { schemaCommand } from "./schema.ts";
import { statusCommand } from "./status.ts";
import { versionCommand } from "./version.ts";
import { waitCommand } from "./wait.ts";

export const COMMANDS: readonly AnyCommand[] = [statusCommand, schemaCommand, approvalsCommand, historyCommand, waitCommand, versionCommand];

export function findCommand(word: string): AnyCommand | undefined {
  return COMMANDS.find((c) => c.name === word);
}
