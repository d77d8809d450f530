// The rules of src/commands/'s layout, as pure functions over a listing and an import graph
// (test/architecture.test.ts applies them to src/ as it is, and to made-up listings to show each
// one failing). Adding a command is one folder, src/commands/<verb>/ with its declaration
// <verb>-command.ts, plus one entry in src/commands/registry.ts.
import path from "node:path";

/** The files of src/commands/ that are the registry and the command contract, not a command. */
export const REGISTRY_FILES = ["commands/all-commands.ts", "commands/command-types.ts", "commands/registry.ts"];
/** What two or more commands share. */
export const SHARED = "commands/shared/";

/** Relative src/ paths → the src/ paths each imports (relative imports only, type-only ones too). */
export type Graph = ReadonlyMap<string, readonly string[]>;

/** The verb folder a src/ path is in ("status" for commands/status/x.ts), or undefined. */
export function verbOf(rel: string): string | undefined {
  const m = /^commands\/([^/]+)\//u.exec(rel);
  return m && m[1] !== "shared" ? m[1] : undefined;
}

/** Who uses a file: a verb's name, "shell" for cli/ and main.ts, "registry", or the file itself. */
function userOf(rel: string): string {
  if (REGISTRY_FILES.includes(rel)) return "registry";
  if (rel.startsWith("cli/") || rel === "main.ts") return "shell";
  return verbOf(rel) ?? rel;
}

/** The folders and files of src/commands/ that the registry's verbs do not account for. */
export function layoutProblems(files: readonly string[], verbs: readonly string[]): string[] {
  const problems: string[] = [];
  for (const verb of verbs) {
    if (!files.includes(`commands/${verb}/${verb}-command.ts`)) problems.push(`${verb}: no commands/${verb}/${verb}-command.ts`);
  }
  for (const f of files.filter((f) => f.startsWith("commands/"))) {
    const verb = verbOf(f);
    if (verb !== undefined && !verbs.includes(verb)) problems.push(`${f}: commands/${verb}/ is no command of the registry`);
    // One naming convention for a verb's files: each is <verb>-<part>.ts, so a file's name alone says
    // whose it is (the names are unique across src/ as well).
    if (verb !== undefined && !path.posix.basename(f).startsWith(`${verb}-`)) problems.push(`${f}: not named ${verb}-<part>.ts`);
    if (verb === undefined && !f.startsWith(SHARED) && !REGISTRY_FILES.includes(f)) problems.push(`${f}: neither a command's folder, shared/ nor the registry`);
    if (f.startsWith(SHARED) && f.slice(SHARED.length).includes("/")) problems.push(`${f}: shared/ has no subfolders`);
  }
  return problems;
}

/** A file of a verb's folder imported from outside it (the registry excepted). */
export function verbFolderProblems(graph: Graph): string[] {
  const problems: string[] = [];
  for (const [from, targets] of graph) {
    for (const target of targets) {
      const verb = verbOf(target);
      if (verb === undefined || verbOf(from) === verb || REGISTRY_FILES.includes(from)) continue;
      problems.push(`${from} imports ${target}, which only commands/${verb}/ may use`);
    }
  }
  return problems;
}

/**
 * A file of shared/ that fewer than two users reach: the verbs (and the shell, which parses the
 * global flags with shared code) that import it, directly or through other files of shared/.
 */
export function sharedProblems(graph: Graph): string[] {
  const importers = new Map<string, string[]>();
  for (const [from, targets] of graph) for (const t of targets) importers.set(t, [...(importers.get(t) ?? []), from]);
  const users = (file: string, seen: Set<string>): Set<string> => {
    const out = new Set<string>();
    for (const from of importers.get(file) ?? []) {
      if (!from.startsWith(SHARED)) out.add(userOf(from));
      else if (!seen.has(from)) for (const u of users(from, new Set([...seen, from]))) out.add(u);
    }
    return out;
  };
  return [...graph.keys()]
    .filter((f) => f.startsWith(SHARED))
    .flatMap((f) => {
      const who = [...users(f, new Set([f]))].sort();
      return who.length >= 2 ? [] : [`${f} is used by ${who.length === 0 ? "nothing" : who.join(", ")} alone: it belongs in that folder`];
    });
}

/** File base names that occur more than once, each with its paths. */
export function repeatedNames(files: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const f of files) byName.set(path.posix.basename(f), [...(byName.get(path.posix.basename(f)) ?? []), f]);
  return [...byName].filter(([, fs]) => fs.length > 1).map(([name, fs]) => `${name}: ${fs.join(", ")}`);
}

/** Folders named `name`, at any depth, of a listing of files. */
export function foldersNamed(files: readonly string[], name: string): string[] {
  const dirs = new Set(
    files.flatMap((f) =>
      f
        .split("/")
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
    ),
  );
  return [...dirs].filter((d) => path.posix.basename(d) === name).sort();
}
