// Argument forms several commands share: `NAME | migration NAME`, and kubectl's --dry-run.
import { RefusalError, UsageError } from "../../errors.ts";
import { pathSegmentError } from "../../model/names.ts";
import type { Positional } from "../command-types.ts";

export interface Target {
  readonly target: "schema" | "migration";
  readonly name: string;
}

/** `SCHEMA` or `migration MIGRATION`, exactly one name. */
/** `[SCHEMA | migration NAME]`: nothing names every object in scope; a name excludes -A. */
export type OptionalTarget = { readonly kind: "all" } | { readonly kind: "schema"; readonly name: string } | { readonly kind: "migration"; readonly name: string };

export function parseOptionalTarget(positionals: readonly string[], allNamespaces: boolean, command: string): OptionalTarget {
  const p = positionals;
  if (p.length === 0) return { kind: "all" };
  if (allNamespaces) throw new UsageError("a name cannot be combined with --all-namespaces", command);
  if (p[0] === "migration") {
    if (p.length !== 2) throw new UsageError(`name one PtahMigration: kubectl ptah ${command} migration <name>`, command);
    return { kind: "migration", name: p[1]! };
  }
  if (p.length !== 1) throw new UsageError("name at most one PtahSchema", command);
  return { kind: "schema", name: p[0]! };
}

export function parseTarget(positionals: readonly string[], command: string): Target {
  const migration = positionals[0] === "migration";
  const names = migration ? positionals.slice(1) : positionals;
  if (names.length !== 1) throw new UsageError(migration ? "name one PtahMigration" : "name one PtahSchema", command);
  return { target: migration ? "migration" : "schema", name: names[0]! };
}

/** kubectl's spelling: server sends a dryRun=All create; client and none only print. */
export function parseDryRun(value: unknown, command: string): "none" | "server" {
  if (value === undefined || value === "none" || value === "client") return "none";
  if (value === "server") return "server";
  throw new UsageError(`invalid --dry-run=${String(value as string | number | boolean)}: use server, client or none`, command);
}

/**
 * The command line's object names (the positionals declared `objectName`) and -n, checked as
 * kubectl's client checks them before a request: one that cannot be a path segment (`..`,
 * `a/status`) is kubectl's error, exit 1, and nothing is sent.
 */
export function checkObjectNames(declared: readonly Positional[], positionals: readonly string[], namespace: string | undefined): void {
  const names = positionals.filter((_word, i) => declared[i]?.objectName === true).map((word) => pathSegmentError("resource name", word));
  const error = [...names, namespace === undefined ? undefined : pathSegmentError("namespace", namespace)].find((e) => e !== undefined);
  if (error !== undefined) throw new RefusalError(error);
}
