// Help text from the command registry, kubectl style: usage lines and examples start with
// "kubectl ptah"; examples carry "# comment" lines.
import type { CommandHeader } from "../commands/registry.ts";
import type { AnyCommand as Command, FlagSpec } from "../commands/command-types.ts";
import { GLOBAL_FLAGS, HELP_FLAG, VERSION_FLAG } from "./global-flags.ts";
import { usageLine } from "./usage.ts";

function flagLines(flags: readonly FlagSpec[]): string[] {
  const left = flags.map((f) => {
    const short = "alias" in f && f.alias ? `-${f.alias}, ` : "    ";
    const value = f.type === "boolean" ? "" : `=${"value" in f && f.value ? f.value : f.type.toUpperCase()}`;
    return `  ${short}--${f.name}${value}`;
  });
  const width = Math.max(...left.map((l) => l.length)) + 3;
  return flags.map((f, i) => {
    const def = f.default !== undefined && f.default !== "" && f.default !== false ? ` (default ${String(f.default)})` : "";
    return `${left[i]!.padEnd(width)}${f.describe}${def}`;
  });
}

export const EXIT_STATUSES = "Exit status: 0 printed, 1 could not read or verify, 2 usage, 3 nothing there (not found, nothing stored to print).";

export function renderCommandHelp(command: Command): string {
  const hidden = new Set(command.hiddenGlobals ?? []);
  const globals = GLOBAL_FLAGS.filter((f) => !hidden.has(f.name));
  const lines = [command.summary + ".", "", ...(command.upstreamUsage ?? ["Usage:", `  ${usageLine(command)}`]), ""];
  if (command.examples.length > 0) {
    lines.push("Examples:");
    for (const e of command.examples) lines.push(`  # ${e.comment}`, `  ${e.command}`, "");
  }
  if (command.flags.length > 0) lines.push("Flags:", ...flagLines(command.flags), "");
  lines.push("Global flags:", ...flagLines([...globals, { ...HELP_FLAG, describe: "Show this help" }]), "", EXIT_STATUSES, "");
  return lines.join("\n");
}

/** The root usage: upstream's commands first, in its order, then ours. */
export function renderRootHelp(commands: readonly CommandHeader[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 3;
  const upstream = commands.filter((c) => c.upstreamRank !== undefined).sort((a, b) => a.upstreamRank! - b.upstreamRank!);
  const usage = [...upstream.flatMap((c) => c.rootUsage ?? []), "kubectl ptah <command> [arguments] [flags]"];
  return [
    "kubectl ptah: a read-only inspector and approval helper for the Ptah schema operator.",
    "",
    ...usage.map((u, i) => `${i === 0 ? "usage: " : "       "}${u}`),
    ...upstream.flatMap((c) => c.upstreamUsage?.slice(1) ?? []),
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    "",
    "Global flags:",
    ...flagLines([...GLOBAL_FLAGS, VERSION_FLAG, HELP_FLAG]),
    "",
    "The plugin only reads (get, list, watch); `approve` prints a manifest for you to create.",
    'Use "kubectl ptah <command> --help" for more about a command.',
    EXIT_STATUSES,
    "",
  ].join("\n");
}
