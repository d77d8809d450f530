// Completion sources the command declarations share: fixed words, names of a kind in the
// cluster (the line's namespace, a short deadline, never a prompt), and the `SCHEMA | migration
// MIGRATION` pair. Each source returns the candidates that start with the word typed; a failure
// of any kind is no candidates (completion never fails loudly).
import type { KindName } from "../../model/parse.ts";
import type { AnyCommand, Candidate, CompletionQuery, CompletionSource, Positional, RunContext } from "../command-types.ts";

/** Per-request timeout for names from the cluster, and the ceiling for the whole lookup. */
export const COMPLETION_REQUEST_TIMEOUT_MS = 2000;
export const COMPLETION_DEADLINE_MS = 3000;

/** The candidates whose value starts with `prefix`. */
export function startingWith(candidates: readonly Candidate[], prefix: string): Candidate[] {
  return candidates.filter((c) => c.value.startsWith(prefix));
}

/** Fixed words. */
export function words(list: readonly string[]): CompletionSource {
  return (q) =>
    startingWith(
      list.map((value) => ({ value })),
      q.toComplete,
    );
}

/** The -o values a command accepts, as completion offers them: "jsonpath=TEMPLATE" → "jsonpath=". */
export function outputFormats(command: AnyCommand | undefined): string[] {
  return (command?.outputs ?? []).map((f) => (f.includes("=") ? f.slice(0, f.indexOf("=") + 1) : f));
}

/** -o: the formats of the command on the line. */
export const outputCandidates: CompletionSource = (q) => words(outputFormats(q.command))(q);

/** Names of `kind` in the namespace the line selects; [] on any failure or after the deadline. */
export async function clusterNames(kind: KindName, ctx: RunContext): Promise<string[]> {
  const lookup = async (): Promise<string[]> => {
    const connection = await ctx.connect();
    const list = await connection.reader.list(kind, { namespace: connection.namespace });
    // An object that does not fit the model is still a name to complete (completion never warns).
    return [...list.items.map((i) => i.raw), ...list.notShown.map((r) => r.raw)]
      .map((raw) => (raw.metadata as { name?: unknown } | undefined)?.name)
      .filter((n): n is string => typeof n === "string");
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), COMPLETION_DEADLINE_MS);
    timer.unref();
  });
  try {
    return await Promise.race([lookup().catch(() => []), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Names of `kind` from the cluster, then `extra` (a keyword), those that start with the word typed. */
export function namesOf(kind: KindName, extra: readonly Candidate[] = []): (q: CompletionQuery) => Promise<Candidate[]> {
  return async (q: CompletionQuery) => startingWith([...(await clusterNames(kind, q.ctx)).map((value) => ({ value })), ...extra], q.toComplete);
}

export const SCHEMA: Positional = { name: "SCHEMA", objectName: true, complete: namesOf("PtahSchema") };
export const MIGRATION: Positional = { name: "MIGRATION", objectName: true, complete: namesOf("PtahMigration") };

/** `SCHEMA | migration MIGRATION`: schema names and the keyword first, then migration names after it. */
export const SCHEMA_OR_MIGRATION: readonly Positional[] = [
  { name: "SCHEMA", objectName: true, complete: namesOf("PtahSchema", [{ value: "migration", description: "Name a PtahMigration instead" }]) },
  { name: "MIGRATION", keyword: "migration", objectName: true, complete: (q) => (q.before[0] === "migration" ? namesOf("PtahMigration")(q) : []) },
];

/** `[SCHEMA | migration MIGRATION]`: the same pair, which a list view may leave out. */
export const OPTIONAL_SCHEMA_OR_MIGRATION: readonly Positional[] = SCHEMA_OR_MIGRATION.map((p) => ({ ...p, optional: true }));
