// The only code that sends requests to the API server. It reads: GET, paginated LIST and
// WATCH, straight from the server (no cache); every object is parsed by the model. The two
// exceptions go through the transport's closed create (kube/http.ts): dryRunCreate, the create
// with dryRun=All of an approval kind that `--dry-run=server` sends, and reviewAccess, the one
// SelfSubjectAccessReview implementation (inbox and doctor both ask through it; it stores nothing),
// and whoAmI, one SelfSubjectReview (who the caller is; stores nothing either; four-eyes asks it).
import { NotFoundError, ReadError, RefusalError, sanitize } from "../errors.ts";
import { pathSegmentError } from "../model/names.ts";
import { KINDS, parseListItem, parseObject, type KindInfo, type KindName, type ObjectOf, type Parsed } from "../model/parse.ts";
import { apiError, invalidJsonError, isMissingType, missingPtahKind, parseJsonBody, type RequestDescription } from "./api-errors.ts";
import type { AccessAnswer, AccessCheck } from "./access.ts";
import type { DryRunKind, Transport } from "./http.ts";
import { isJsonObject, listItems, notShownItem, notAnObject } from "./not-shown.ts";
import { noteRead, pageReader, type PageReader } from "./page-reader.ts";
import { LongLine, MAX_WATCH_LINE_BYTES } from "./response.ts";
import { sleep } from "./retry.ts";
import type { ClusterReader, DryRunResult, Identity, ListOptions, ListResult, ServerInfo, WatchEventType, WatchOptions } from "./types.ts";

/** How long a reconnecting watch retries 401/403/404 answers of a server that is starting. */
export const RECONNECT_GRACE_MS = 60_000;

/** Page size for LIST: one request per 500 objects. */
export const PAGE_SIZE = 500;

/** The shell checks the command line's names first; a namespace from the kubeconfig, or a caller's name, is checked here. */
function checkPathSegment(what: "resource name" | "namespace", segment: string): void {
  const error = pathSegmentError(what, segment);
  if (error !== undefined) throw new RefusalError(error);
}

function basePath(info: KindInfo, namespace: string | undefined): string {
  if (namespace !== undefined) checkPathSegment("namespace", namespace);
  const prefix = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
  return namespace === undefined ? `${prefix}/${info.plural}` : `${prefix}/namespaces/${encodeURIComponent(namespace)}/${info.plural}`;
}

function resourceName(info: KindInfo): string {
  return info.group ? `${info.plural}.${info.group}` : info.plural;
}

function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** A watch line that is not JSON: the stream is ended and resumed, never the event dropped. */
class TornLine extends Error {}

export class HttpClusterReader implements ClusterReader {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  async get<K extends KindName>(kind: K, namespace: string, name: string): Promise<Parsed<ObjectOf<K>>> {
    const info = KINDS[kind];
    const d: RequestDescription = { verb: "get", resource: resourceName(info), namespace, name };
    checkPathSegment("resource name", name);
    const res = await this.transport.get(`${basePath(info, namespace)}/${encodeURIComponent(name)}`);
    // A missing CRD is not a missing object: exit 1 with the CRD hint, never "no such schema".
    if (res.status === 404 && info.group && isMissingType(res.body)) throw new ReadError(missingPtahKind(info.plural), 404);
    if (res.status !== 200) throw apiError(res.status, res.body, d);
    noteRead(res.body.length, "object");
    return parseObject(kind, parseJsonBody(res.body, d));
  }

  async list<K extends KindName>(kind: K, options: ListOptions): Promise<ListResult<ObjectOf<K>>> {
    const info = KINDS[kind];
    const d: RequestDescription = { verb: "list", resource: resourceName(info), namespace: options.namespace };
    let continueToken: string | undefined;
    let resourceVersion = "";
    // Each item is read by the model as soon as its bytes are in (kube/list-page.ts): the page is
    // never held whole, and what the caller does not keep is garbage at once.
    const { items, notShown, take } = listItems(kind, options, d.resource);
    const bytes = { received: 0 };
    do {
      let decoder: PageReader | undefined;
      const sink = (): ((chunk: Buffer) => void) => (decoder = pageReader(take, () => invalidJsonError(d), bytes)).write;
      const res = await this.transport.get(
        basePath(info, options.namespace) +
          query({
            limit: String(PAGE_SIZE),
            continue: continueToken,
            labelSelector: options.labelSelector,
            fieldSelector: options.fieldSelector,
          }),
        { sink },
      );
      // A transport that does not stream (a test's stub) answers with the body: the same decoder reads it.
      if (res.status === 200 && !decoder) sink()(res.body);
      if (res.status !== 200 || !decoder) {
        if (res.status === 404 && info.group) {
          throw new NotFoundError(missingPtahKind(info.plural));
        }
        throw apiError(res.status, res.body, d);
      }
      const page = decoder.end() as { metadata?: { continue?: string; resourceVersion?: string } };
      // A string, a number or an object without items is no list, never an empty one (kubectl errors too).
      const notAList = decoder.notAList();
      if (notAList) throw new ReadError(`the server answered the list of ${d.resource} with ${notAList}, not a list`);
      continueToken = page.metadata?.continue || undefined;
      resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
    } while (continueToken);
    return { items, resourceVersion, notShown };
  }

  async watch<K extends KindName>(kind: K, options: WatchOptions): Promise<void> {
    const info = KINDS[kind];
    const d: RequestDescription = { verb: "watch", resource: resourceName(info), namespace: options.namespace };
    let resourceVersion: string | undefined;
    let backoff = 250;
    // The first list fails the command at once; after it, a broken connection is reconnected.
    let listedOnce = false;
    // Once a connection was lost, the server answering 401/403/404 for a while is a server that is
    // still starting (authorizer and CRD handlers not synced yet), not a verdict: retried for
    // RECONNECT_GRACE_MS, then reported.
    let reconnecting = false;
    let refusedSince: number | undefined;
    // The resourceVersion a line that is not JSON tore at: the watch resumes from it once; the
    // same line tearing again means the server cannot send it here, so the watch lists again.
    let tornAt: string | undefined;
    while (!options.signal.aborted) {
      let gone = false;
      try {
        if (resourceVersion === undefined) {
          const listed = await this.list(kind, options);
          resourceVersion = listed.resourceVersion;
          listedOnce = true;
          refusedSince = undefined;
          options.onList(listed.items, listed.notShown);
        }
        await this.transport.stream(
          basePath(info, options.namespace) +
            query({
              watch: "true",
              allowWatchBookmarks: "true",
              resourceVersion,
              labelSelector: options.labelSelector,
              fieldSelector: options.fieldSelector,
              timeoutSeconds: "300",
            }),
          (line) => {
            refusedSince = undefined;
            let event: { type?: string; object?: Record<string, unknown> };
            try {
              event = JSON.parse(line) as typeof event;
            } catch {
              throw new TornLine(); // ends this stream: the loop resumes from the last resourceVersion
            }
            // JSON that is no event at all (null, a number) is read as a line that tore.
            if (!isJsonObject(event)) throw new TornLine();
            const obj = event.object ?? {};
            const rv = (obj.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
            if (event.type === "BOOKMARK") {
              if (rv) resourceVersion = rv;
              return;
            }
            if (event.type === "ERROR") {
              if ((obj as { code?: number }).code === 410) gone = true;
              return;
            }
            if (event.type === "ADDED" || event.type === "MODIFIED" || event.type === "DELETED") {
              if (rv) resourceVersion = rv;
              tornAt = undefined;
              if (!isJsonObject(event.object)) {
                options.onNotShown(event.type, notAnObject(`the object of a watch event of ${d.resource}`, event.object, 0));
                return;
              }
              const complete = { apiVersion: `${info.group}/${info.version}`, kind: info.kind, ...obj };
              const parsed = parseListItem(kind, complete);
              if (parsed instanceof Error) options.onNotShown(event.type, notShownItem(parsed, complete, 0));
              else options.onEvent(event.type as WatchEventType, parsed);
            }
          },
          options.signal,
        );
        // The server ended the stream (timeoutSeconds): watch again from where it stopped.
        backoff = 250;
        reconnecting = true;
      } catch (err) {
        if (options.signal.aborted) break;
        if (err instanceof TornLine || err instanceof LongLine) {
          if (tornAt === resourceVersion) gone = true;
          else tornAt = resourceVersion;
          // A line too long to hold is dropped unread: say so, once, and what the watch does next.
          if (err instanceof LongLine) {
            const next = gone ? "listing again" : `watching again from resourceVersion ${resourceVersion ?? ""}`;
            this.transport.config.log?.(
              `Warning: dropped a watch line of ${d.resource} longer than ${MAX_WATCH_LINE_BYTES} bytes (no event the API server sends is that long); ${next}`,
            );
          }
          reconnecting = true;
          await sleep(backoff, options.signal);
          backoff = Math.min(backoff * 2, 5000);
        } else {
          if (!listedOnce) throw err;
          const response = (err as { response?: { status: number; body: Buffer } }).response;
          const status = response?.status ?? (err instanceof ReadError ? err.httpStatus : err instanceof NotFoundError ? 404 : undefined);
          const connectionLost = status === undefined && (err instanceof ReadError || typeof (err as { code?: unknown }).code === "string");
          // Not the connection's fault (a caller's handler threw): say it now.
          if (status === undefined && !connectionLost) throw err;
          if (status === 410) gone = true;
          else {
            if (status !== undefined && status !== 429 && status < 500) {
              const now = Date.now();
              refusedSince ??= now;
              if (!reconnecting || now - refusedSince > RECONNECT_GRACE_MS) throw response ? apiError(response.status, response.body, d) : err;
            }
            // The connection dropped (or the server is unavailable or starting): reconnect with backoff.
            reconnecting = true;
            await sleep(backoff, options.signal);
            backoff = Math.min(backoff * 2, 5000);
          }
        }
      }
      // 410 Gone: the resourceVersion expired; list again and carry on from the new one.
      if (gone) {
        resourceVersion = undefined;
        tornAt = undefined;
      }
    }
  }

  async serverInfo(): Promise<ServerInfo> {
    const v = await this.transport.get("/version");
    if (v.status !== 200) throw apiError(v.status, v.body, { verb: "get", resource: "/version", namespace: undefined });
    const version = parseJsonBody(v.body, { verb: "get", resource: "/version", namespace: undefined }) as { gitVersion?: string };
    const group = KINDS.PtahSchema.group;
    const res = await this.transport.get(`/apis/${group}/${KINDS.PtahSchema.version}`);
    let ptahKinds: string[] = [];
    if (res.status === 200) {
      const list = parseJsonBody(res.body, { verb: "get", resource: group, namespace: undefined }) as { resources?: { kind?: string; name?: string }[] };
      ptahKinds = (list.resources ?? [])
        .filter((r) => r.name && !r.name.includes("/") && r.kind)
        .map((r) => sanitize(r.kind!))
        .sort();
    } else if (res.status !== 404) {
      throw apiError(res.status, res.body, { verb: "get", resource: group, namespace: undefined });
    }
    return { gitVersion: sanitize(version.gitVersion ?? "unknown"), ptahKinds };
  }

  async dryRunCreate(kind: DryRunKind, namespace: string, body: Record<string, unknown>): Promise<DryRunResult> {
    const info = KINDS[kind];
    const d: RequestDescription = { verb: "create", resource: resourceName(info), namespace };
    const res = await this.transport.create({ kind, namespace, body });
    if (res.status !== 200 && res.status !== 201) throw apiError(res.status, res.body, d);
    const object = parseJsonBody(res.body, d);
    if (!object || typeof object !== "object") throw new ReadError("the server's dry-run answer is not an object");
    return { object: object as Record<string, unknown> };
  }

  /** One SelfSubjectAccessReview per check, in parallel; answers in the order asked. */
  reviewAccess(checks: readonly AccessCheck[]): Promise<AccessAnswer[]> {
    return Promise.all(checks.map((c) => this.reviewOne(c)));
  }

  private async reviewOne(check: AccessCheck): Promise<AccessAnswer> {
    const d: RequestDescription = { verb: "create", resource: "selfsubjectaccessreviews.authorization.k8s.io", namespace: undefined };
    const resourceAttributes = { verb: check.verb, group: check.group, resource: check.resource, ...(check.namespace ? { namespace: check.namespace } : {}) };
    const res = await this.transport.create({
      kind: "SelfSubjectAccessReview",
      body: { apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectAccessReview", spec: { resourceAttributes } },
    });
    if (res.status !== 200 && res.status !== 201) throw apiError(res.status, res.body, d);
    const answer = parseJsonBody(res.body, d) as { status?: { allowed?: unknown; reason?: unknown; evaluationError?: unknown } } | null;
    if (!answer || typeof answer !== "object") throw new ReadError("the server's access review answer is not an object");
    const reason = [answer.status?.reason, answer.status?.evaluationError]
      .filter((r): r is string => typeof r === "string" && r !== "")
      .map(sanitize)
      .join("; ");
    return { check, allowed: answer.status?.allowed === true, reason: reason || undefined };
  }

  async whoAmI(): Promise<Identity> {
    const d: RequestDescription = { verb: "create", resource: "selfsubjectreviews.authentication.k8s.io", namespace: undefined };
    const res = await this.transport.create({ kind: "SelfSubjectReview", body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" } });
    if (res.status !== 200 && res.status !== 201) throw apiError(res.status, res.body, d);
    const answer = parseJsonBody(res.body, d) as { status?: { userInfo?: { username?: unknown; uid?: unknown; groups?: unknown } } } | null;
    const user = answer && typeof answer === "object" ? answer.status?.userInfo : undefined;
    if (!user || typeof user.username !== "string") throw new ReadError("the server's SelfSubjectReview answer names no user");
    const groups = Array.isArray(user.groups) ? user.groups.filter((g): g is string => typeof g === "string").map(sanitize) : [];
    return { username: user.username, uid: typeof user.uid === "string" ? user.uid : "", groups };
  }
}
