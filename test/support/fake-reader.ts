// In-memory ClusterReader over fixture objects. Records every call as
// "verb Kind namespace/name" so tests can assert exactly what a command read.
import { NotFoundError, ReadError } from "../../src/errors.ts";
import type {
  AccessAnswer,
  AccessCheck,
  ClusterReader,
  DryRunKind,
  DryRunResult,
  Identity,
  ListOptions,
  ListResult,
  NotShownItem,
  ServerInfo,
  WatchOptions,
} from "../../src/kube/types.ts";
import { notShownItem } from "../../src/kube/not-shown.ts";
import { KINDS, parseListItem, parseObject, type KindName, type ObjectOf, type Parsed } from "../../src/model/parse.ts";

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
  /** The authorizer's answer to reviewAccess (default: allowed). */
  access: (kind: KindName, namespace: string, verb: string) => boolean = () => true;
  /** Who the caller is (whoAmI's SelfSubjectReview answer). */
  identity: Identity = { username: "fake-user", uid: "", groups: ["system:authenticated"] };

  constructor(objects: FakeObject[]) {
    this.objects = objects.map((o) => ({ kind: o.kind, raw: copyJson(o.raw) }));
  }

  put(kind: KindName, raw: Record<string, unknown>): void {
    const meta = raw.metadata as { name: string; namespace?: string };
    this.remove(kind, meta.namespace ?? "", meta.name);
    this.objects.push({ kind, raw: copyJson(raw) });
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
    return parseObject(kind, copyJson(found.raw));
  }

  async list<K extends KindName>(kind: K, options: ListOptions): Promise<ListResult<ObjectOf<K>>> {
    this.record(`list ${kind} ${options.namespace ?? "*"}`, `list ${kind}`);
    const served = this.objects
      .filter((o) => o.kind === kind && (options.namespace === undefined || nsOf(o.raw) === options.namespace))
      .filter((o) => matchesLabels(o.raw, options.labelSelector))
      .filter((o) => matchesFields(o.raw, options.fieldSelector));
    const items: Parsed<ObjectOf<K>>[] = [];
    const notShown: NotShownItem[] = [];
    served.forEach((o, index) => {
      const raw = copyJson(o.raw);
      if (options.select && !options.select(raw)) return; // as the HTTP reader: never parsed nor returned
      const parsed = parseListItem(kind, raw);
      if (parsed instanceof Error) notShown.push(notShownItem(parsed, raw, index));
      else items.push(parsed);
    });
    return { items, resourceVersion: "1", notShown };
  }

  async watch<K extends KindName>(kind: K, options: WatchOptions): Promise<void> {
    const { items, notShown } = await this.list(kind, options);
    options.onList(items, notShown);
    const watcher = { kind, options };
    this.watchers.push(watcher);
    await new Promise<void>((resolve) => {
      if (options.signal.aborted) resolve();
      options.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    this.watchers.splice(this.watchers.indexOf(watcher), 1);
  }

  /** The watches that have listed and now wait for events, by kind. */
  private readonly watchers: { kind: KindName; options: WatchOptions }[] = [];

  /** How many watches are running (a test injects events once all of them have listed). */
  get watching(): number {
    return this.watchers.length;
  }

  /** A watch event as the server sends one: the object is stored (or removed), then every watch of its kind hears it. */
  event(kind: KindName, type: "ADDED" | "MODIFIED" | "DELETED", raw: Record<string, unknown>): void {
    if (type === "DELETED") this.remove(kind, nsOf(raw), nameOf(raw));
    else this.put(kind, raw);
    for (const w of this.watchers.filter((x) => x.kind === kind)) {
      const parsed = parseListItem(kind, copyJson(raw));
      if (parsed instanceof Error) w.options.onNotShown(type, notShownItem(parsed, copyJson(raw), 0));
      else w.options.onEvent(type, parsed);
    }
  }

  async serverInfo(): Promise<ServerInfo> {
    this.record("get /version", "get /version");
    return {
      gitVersion: "v1.33.13",
      ptahKinds: Object.values(KINDS)
        .filter((k) => k.group)
        .map((k) => k.kind),
    };
  }

  async dryRunCreate(kind: DryRunKind, namespace: string, body: Record<string, unknown>): Promise<DryRunResult> {
    this.record(`create?dryRun=All ${kind} ${namespace}`, `create ${kind}`);
    if (!this.dryRun) throw new ReadError("dry run is not supported by this fake");
    return this.dryRun(kind, namespace, body);
  }

  /** One answer per check, in order; a Ptah kind's check is recorded and answered by `access`. */
  async reviewAccess(checks: readonly AccessCheck[]): Promise<AccessAnswer[]> {
    const answers: AccessAnswer[] = [];
    for (const check of checks) {
      const kind = Object.values(KINDS).find((k) => k.group === check.group && k.plural === check.resource)?.kind ?? check.resource;
      const namespace = check.namespace ?? "";
      this.record(`create SelfSubjectAccessReview ${check.verb} ${kind} ${namespace}`, "create SelfSubjectAccessReview");
      answers.push({ check, allowed: this.access(kind as KindName, namespace, check.verb), reason: undefined });
    }
    return answers;
  }

  async whoAmI(): Promise<Identity> {
    this.record("create SelfSubjectReview", "create SelfSubjectReview");
    return copyJson(this.identity);
  }
}

/**
 * A deep copy of a served (JSON) value without recursion: structuredClone recurses, and the
 * deep-nesting tests serve objects 10,000 levels deep (test/guarantees/deep-nesting.test.ts). Keys are
 * own properties as JSON.parse makes them, even one called __proto__.
 */
export function copyJson<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  const root: unknown = Array.isArray(value) ? [] : {};
  const work: [unknown, Record<string, unknown>][] = [[value, root as Record<string, unknown>]];
  while (work.length > 0) {
    const [from, to] = work.pop()!;
    for (const key of Object.keys(from as object)) {
      const v = (from as Record<string, unknown>)[key];
      let copied = v;
      if (v !== null && typeof v === "object") {
        copied = Array.isArray(v) ? [] : {};
        work.push([v, copied as Record<string, unknown>]);
      }
      Object.defineProperty(to, key, { value: copied, enumerable: true, writable: true, configurable: true });
    }
  }
  return root as T;
}

function nsOf(raw: Record<string, unknown>): string {
  return ((raw.metadata as { namespace?: string } | undefined)?.namespace ?? "") as string;
}
function nameOf(raw: Record<string, unknown>): string {
  return ((raw.metadata as { name?: string } | undefined)?.name ?? "") as string;
}

export function matchesLabels(raw: Record<string, unknown>, selector: string | undefined): boolean {
  if (!selector) return true;
  const labels = ((raw.metadata as { labels?: Record<string, string> }).labels ?? {}) as Record<string, string>;
  return selector.split(",").every((term) => {
    const [k, v] = term.split("=");
    if (k === undefined) return true;
    return v === undefined ? k in labels : labels[k] === v;
  });
}

export function matchesFields(raw: Record<string, unknown>, selector: string | undefined): boolean {
  if (!selector) return true;
  return selector.split(",").every((term) => {
    const [path, value] = term.split("=");
    if (!path) return true;
    let cur: unknown = raw;
    for (const part of path.split(".")) cur = (cur as Record<string, unknown> | undefined)?.[part];
    return cur === value;
  });
}
