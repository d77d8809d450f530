// The read-only seam between commands and the cluster. Commands import these types only;
// kube/reader.ts implements them over @kubernetes/client-node, tests over fixtures.
import type { KindName, ObjectOf, Parsed } from "../model/parse.ts";
import type { DryRunKind, ReviewKind } from "./http.ts";
import type { ConfigOverrides } from "./overrides.ts";

export type { ConfigOverrides, DryRunKind, ReviewKind };

export interface ListOptions {
  /** undefined = all namespaces (-A). */
  readonly namespace: string | undefined;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /**
   * false: the caller reads only `object` (a human view), so items' `raw` is an empty object and
   * the served JSON is not kept: at 20,000 objects that halves the memory a list holds.
   * Default true (machine output prints `raw`).
   */
  readonly keepRaw?: boolean;
}

export interface ListResult<T> {
  readonly items: readonly Parsed<T>[];
  /** The list's resourceVersion, for a watch that follows it. */
  readonly resourceVersion: string;
}

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

export interface WatchOptions extends ListOptions {
  /** Called after every initial list and relist with the complete current set. */
  readonly onList: (items: readonly Parsed<unknown>[]) => void;
  readonly onEvent: (type: WatchEventType, item: Parsed<unknown>) => void;
  readonly signal: AbortSignal;
}

export interface ServerInfo {
  readonly gitVersion: string;
  /** Ptah kinds served by the cluster (discovery of operator.ptah.run/v1alpha1). */
  readonly ptahKinds: readonly string[];
}

/** A dry-run create answer: the object admission would store, or its refusal. */
export interface DryRunResult {
  readonly object: Record<string, unknown>;
}

export interface ClusterReader {
  /** GET one object. Throws NotFoundError (exit 3) when absent, ReadError (exit 1) otherwise. */
  get<K extends KindName>(kind: K, namespace: string, name: string): Promise<Parsed<ObjectOf<K>>>;
  /** LIST with limit/continue pagination (one request per page). */
  list<K extends KindName>(kind: K, options: ListOptions): Promise<ListResult<ObjectOf<K>>>;
  /**
   * List then watch from the list's resourceVersion with bookmarks; reconnects with backoff
   * and relists on 410 Gone. Resolves when `signal` aborts.
   */
  watch<K extends KindName>(kind: K, options: WatchOptions): Promise<void>;
  /** Server version and which Ptah kinds are served. */
  serverInfo(): Promise<ServerInfo>;
  /**
   * The create with dryRun=All of an approval kind (`--dry-run=server`); the transport adds
   * dryRun=All itself and takes no other kind (developers' guide: "Read-only").
   */
  dryRunCreate(kind: DryRunKind, namespace: string, body: Record<string, unknown>): Promise<DryRunResult>;
  /** A SelfSubjectAccessReview or SelfSubjectRulesReview of the caller's own permissions (stores nothing). */
  reviewAccess(kind: ReviewKind, body: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** What connecting needs from kubectl's global flags. */
export interface ConnectOptions {
  readonly kubeconfig: string | undefined;
  readonly context: string | undefined;
  readonly namespace: string | undefined;
  /** Per-request timeout in milliseconds; 0 means none. */
  readonly requestTimeoutMs: number;
  /** --cluster, --user, --server, credentials, TLS and impersonation flags (kube/overrides.ts). */
  readonly overrides: ConfigOverrides;
  /** -v: 6 logs requests, 7 adds headers, 8 bodies (truncated), 9 bodies in full. */
  readonly verbosity: number;
  readonly warningsAsErrors: boolean;
}

export interface Connection {
  readonly reader: ClusterReader;
  /** -n, else the context's namespace, else "default". */
  readonly namespace: string;
  readonly contextName: string;
}
