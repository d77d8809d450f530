// In-memory ClusterReader over fixture objects. Records every call as
// "verb Kind namespace/name" so tests can assert exactly what a command read.
import { NotFoundError, ReadError } from "../../src/errors.ts";
import type { ClusterReader, DryRunKind, DryRunResult, ListOptions, ListResult, ReviewKind, ServerInfo, WatchOptions } from "../../src/kube/types.ts";
import { KINDS, parseObject, type KindName, type ObjectOf, type Parsed } from "../../src/model/parse.ts";

export interface FakeObject {
  kind: KindName;
  raw: Record<string, unknown>;
}

export class FakeReader implements ClusterReader {
  readonly requests: string[] = [];
  private readonly objects: FakeObject[];
  /** Per "verb Kind" or "verb Kind ns/name", an error to throw instead of answering. */
  readonly faults = new Map<string, Error>();
  /** Called before every answer; lets a test change the state between reads (races). */
  onRequest: ((request: string, reader: FakeReader) => void) | undefined;
  dryRun: ((kind: KindName, namespace: string, body: Record<string, unknown>) => DryRunResult) | undefined;

  constructor(objects: FakeObject[]) {
    this.objects = objects.map((o) => ({ kind: o.kind, raw: structuredClone(o.raw) }));
  }

  put(kind: KindName, raw: Record<string, unknown>): void {
    const meta = raw.metadata as { name: string; namespace?: string };
    this.remove(kind, meta.namespace ?? "", meta.name);
    this.objects.push({ kind, raw: structuredClone(raw) });
  }

  remove(kind: KindName, namespace: string, name: string): void {
    const i = this.objects.findIndex((o) => o.kind === kind && nsOf(o.raw) === namespace && nameOf(o.raw) === name);
    if (i >= 0) this.objects.splice(i, 1);
  }

  private record(request: string, short: string): void {
    this.requests.push(request);
    this.onRequest?.(request, this);
    const fault = this.faults.get(request) ?? this.faults.get(short);
    if (fault) throw fault;
  }

  async get<K extends KindName>(kind: K, namespace: string, name: string): Promise<Parsed<ObjectOf<K>>> {
    this.record(`get ${kind} ${namespace}/${name}`, `get ${kind}`);
    const found = this.objects.find((o) => o.kind === kind && nsOf(o.raw) === namespace && nameOf(o.raw) === name);
    if (!found) {
      const info = KINDS[kind];
      const resource = info.group ? `${info.plural}.${info.group}` : info.plural;
      throw new NotFoundError(`${resource} "${name}" not found`);
    }
    return parseObject(kind, structuredClone(found.raw));
  }

  async list<K extends KindName>(kind: K, options: ListOptions): Promise<ListResult<ObjectOf<K>>> {
    this.record(`list ${kind} ${options.namespace ?? "*"}`, `list ${kind}`);
    const items = this.objects
      .filter((o) => o.kind === kind && (options.namespace === undefined || nsOf(o.raw) === options.namespace))
      .filter((o) => matchesLabels(o.raw, options.labelSelector))
      .filter((o) => matchesFields(o.raw, options.fieldSelector))
      .map((o) => parseObject(kind, structuredClone(o.raw)));
    return { items, resourceVersion: "1" };
  }

  async watch<K extends KindName>(kind: K, options: WatchOptions): Promise<void> {
    const { items } = await this.list(kind, options);
    options.onList(items);
    await new Promise<void>((resolve) => {
      if (options.signal.aborted) resolve();
      options.signal.addEventListener("abort", () => resolve(), { once: true });
    });
  }

  async serverInfo(): Promise<ServerInfo> {
    this.record("get /version", "get /version");
    return { gitVersion: "v1.33.13", ptahKinds: Object.values(KINDS).filter((k) => k.group).map((k) => k.kind) };
  }

  async dryRunCreate(kind: DryRunKind, namespace: string, body: Record<string, unknown>): Promise<DryRunResult> {
    this.record(`create?dryRun=All ${kind} ${namespace}`, `create ${kind}`);
    if (!this.dryRun) throw new ReadError("dry run is not supported by this fake");
    return this.dryRun(kind, namespace, body);
  }

  /** Answers every review as allowed unless `review` says otherwise. */
  review: ((kind: ReviewKind, body: Record<string, unknown>) => Record<string, unknown>) | undefined;
  async reviewAccess(kind: ReviewKind, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    this.record(`create ${kind}`, `create ${kind}`);
    return this.review ? this.review(kind, body) : { apiVersion: "authorization.k8s.io/v1", kind, status: { allowed: true } };
  }
}

function nsOf(raw: Record<string, unknown>): string {
  return ((raw.metadata as { namespace?: string } | undefined)?.namespace ?? "") as string;
}
function nameOf(raw: Record<string, unknown>): string {
  return ((raw.metadata as { name?: string } | undefined)?.name ?? "") as string;
}

function matchesLabels(raw: Record<string, unknown>, selector: string | undefined): boolean {
  if (!selector) return true;
  const labels = ((raw.metadata as { labels?: Record<string, string> }).labels ?? {}) as Record<string, string>;
  return selector.split(",").every((term) => {
    const [k, v] = term.split("=");
    if (k === undefined) return true;
    return v === undefined ? k in labels : labels[k] === v;
  });
}

function matchesFields(raw: Record<string, unknown>, selector: string | undefined): boolean {
  if (!selector) return true;
  return selector.split(",").every((term) => {
    const [path, value] = term.split("=");
    if (!path) return true;
    let cur: unknown = raw;
    for (const part of path.split(".")) cur = (cur as Record<string, unknown> | undefined)?.[part];
    return cur === value;
  });
}
