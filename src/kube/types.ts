// The read-only seam between commands and the cluster. Commands import these types only;
// kube/reader.ts implements them over @kubernetes/client-node, tests over fixtures.
import type { KindName, ObjectOf, Parsed } from "../model/parse.ts";
import type { AccessAnswer, AccessCheck, PermissionForm, Rule, Verb } from "./access.ts";
import type { DryRunKind, IdentityKind, ReviewKind } from "./http.ts";
import type { ClusterInspector } from "./inspect.ts";
import type { KubeconfigOrigin } from "./kubeconfig.ts";
import type { ConfigOverrides } from "./overrides.ts";

export type { AccessAnswer, AccessCheck, ConfigOverrides, DryRunKind, IdentityKind, PermissionForm, ReviewKind, Rule, Verb };
export type {
  AdmissionConfiguration,
  ApplyGuardPolicy,
  ClusterInspector,
  CrdAnnotations,
  DeploymentFacts,
  GroupDiscovery,
  LeaseFacts,
  RealmFacts,
  ServerVersion,
  WebhookEntry,
  WebhookKind,
} from "./inspect.ts";
export type { KubeconfigOrigin } from "./kubeconfig.ts";

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
  /**
   * Decides on the served JSON, before the model reads an item, whether the caller wants it:
   * items it refuses are neither parsed nor returned (nor warned of as not shown). `status SCHEMA` reads only
   * the approvals that name its schema out of the namespace's thousands this way.
   */
  readonly select?: (raw: Record<string, unknown>) => boolean;
}

/**
 * A served object that does not fit the model. Every list and watch returns these beside the
 * objects that fit (docs/output.md, "Tolerance"): the caller shows the others and warns once per object.
 */
export interface NotShownItem {
  /** The object as served (for -o json/yaml, which print every served object). */
  readonly raw: Record<string, unknown>;
  /** "ptahschema app/odd does not fit the PtahSchema model: status.phase: …" */
  readonly problem: string;
  /** Its position among all served items, so machine output keeps the server's order. */
  readonly index: number;
  /**
   * Set when it cannot be printed as served: it is nested deeper than the model's limit (printing
   * would recurse as deep) or is not an object (`raw` is then empty). Machine output leaves it
   * out, with its warning.
   */
  readonly unprintable?: true;
}

export interface ListResult<T> {
  readonly items: readonly Parsed<T>[];
  /** The list's resourceVersion, for a watch that follows it. */
  readonly resourceVersion: string;
  /** Served items that did not fit the model, in the server's order. */
  readonly notShown: readonly NotShownItem[];
}

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

export interface WatchOptions extends ListOptions {
  /** Called after every initial list and relist with the complete current set (and what did not fit). */
  readonly onList: (items: readonly Parsed<unknown>[], notShown: readonly NotShownItem[]) => void;
  readonly onEvent: (type: WatchEventType, item: Parsed<unknown>) => void;
  /** An event whose object does not fit the model: the watch goes on (docs/output.md, "Tolerance"). */
  readonly onNotShown: (type: WatchEventType, item: NotShownItem) => void;
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
   * List then watch from the list's resourceVersion with bookmarks; reconnects with backoff,
   * resumes from the last resourceVersion after a line that is not JSON (relists when the same
   * line tears twice) and relists on 410 Gone. Resolves when `signal` aborts.
   */
  watch<K extends KindName>(kind: K, options: WatchOptions): Promise<void>;
  /** Server version and which Ptah kinds are served. */
  serverInfo(): Promise<ServerInfo>;
  /**
   * The create with dryRun=All of an approval kind (`--dry-run=server`); the transport adds
   * dryRun=All itself and takes no other kind (developers' guide: "Read-only").
   */
  dryRunCreate(kind: DryRunKind, namespace: string, body: Record<string, unknown>): Promise<DryRunResult>;
  /**
   * May the caller do each check's verb? One SelfSubjectAccessReview create per check (the
   * read-only rule allows it: it asks the authorizer and persists nothing); answers in order.
   * The only access-review path: `inbox` asks through it, `doctor` through the inspector, which
   * delegates here.
   */
  reviewAccess(checks: readonly AccessCheck[]): Promise<AccessAnswer[]>;
  /**
   * Who am I? One SelfSubjectReview create (authentication.k8s.io/v1, as `kubectl auth whoami`):
   * the server answers with the request's own user, impersonation applied, and stores nothing
   * (four-eyes added it to the read-only rule). `approve` and `inbox` compare it with a resource's
   * last spec writer.
   */
  whoAmI(): Promise<Identity>;
}

/** Who the API server says the caller is (a SelfSubjectReview's status.userInfo; username and uid as served, compared byte for byte, sanitised where printed). */
export interface Identity {
  readonly username: string;
  /** "" when the authenticator supplies none (client certificates never do). */
  readonly uid: string;
  readonly groups: readonly string[];
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
  /** Where the context, cluster, user and namespace came from (doctor); tests may leave it out. */
  readonly origin?: KubeconfigOrigin;
  /** doctor's reads: version with Date, discovery, CRDs, webhooks, access reviews. */
  readonly inspector?: ClusterInspector;
}
