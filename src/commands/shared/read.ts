// Named reads shared by the commands: a GET whose NotFound becomes the command's own
// "nothing there" line (exit 3), and a GET where absence is an answer, not an error.
import { NotFoundError } from "../../errors.ts";
import type { ClusterReader } from "../../kube/types.ts";
import type { KindName, ObjectOf, Parsed } from "../../model/parse.ts";

export function noSuchSchema(namespace: string, name: string): string {
  return `no such schema: ${namespace}/${name}`;
}

/** The `schema` command's wording, which differs from the plan loader's. */
export function noPtahSchema(namespace: string, name: string): string {
  return `no PtahSchema by that name: ${namespace}/${name}`;
}

/** Upstream's wording for a missing migration. */
export function noSuchMigration(namespace: string, name: string): string {
  return `no PtahMigration by that name: ${namespace}/${name}`;
}

export async function getOrNotFound<K extends KindName>(reader: ClusterReader, kind: K, namespace: string, name: string, message: string): Promise<Parsed<ObjectOf<K>>> {
  try {
    return await reader.get(kind, namespace, name);
  } catch (err) {
    if (err instanceof NotFoundError) throw new NotFoundError(message);
    throw err;
  }
}

export async function getOptional<K extends KindName>(reader: ClusterReader, kind: K, namespace: string, name: string): Promise<Parsed<ObjectOf<K>> | undefined> {
  try {
    return await reader.get(kind, namespace, name);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/**
 * Several reads at once, as Promise.all, but when some fail the error is the first one in the
 * order written, not the first to arrive: the same cluster gives the same error line every run
 * (a missing CRD is named as `ptahschemas` by `status`, never `ptahmigrations` by chance).
 */
export async function readAll<T extends readonly unknown[]>(reads: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(reads);
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) throw failed.reason;
  // Every read fulfilled: the same values Promise.all would give.
  return Promise.all(reads);
}
