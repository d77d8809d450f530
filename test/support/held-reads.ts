// Reads that must be in flight together: the fake cluster holds each answer of a named set until
// every request of the set has arrived. Reads sent one after another never meet, and the first
// one fails after a bounded wait (a test goes red, it does not hang).
import type { AdmissionConfiguration, Identity, ListOptions, ListResult } from "../../src/kube/types.ts";
import type { KindName, ObjectOf, Parsed } from "../../src/model/parse.ts";
import { FakeInspector } from "./fake-inspector.ts";
import { FakeReader, type FakeObject } from "./fake-reader.ts";

/** How long an answer is held for the rest of its set before it fails. */
export const HOLD_BOUND_MS = 2000;

export class Rendezvous {
  private readonly together: ReadonlySet<string>;
  private readonly arrived = new Set<string>();
  private readonly waiting: (() => void)[] = [];
  private readonly boundMs: number;

  constructor(together: readonly string[], boundMs = HOLD_BOUND_MS) {
    this.together = new Set(together);
    this.boundMs = boundMs;
  }

  /** Whether every request of the set arrived while the others were held. */
  get met(): boolean {
    return [...this.together].every((r) => this.arrived.has(r));
  }

  /** Holds the answer to `request` (one of the set) until the whole set has arrived. */
  async hold(request: string): Promise<void> {
    if (!this.together.has(request)) return;
    this.arrived.add(request);
    if (this.met) {
      for (const release of this.waiting.splice(0)) release();
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        const missing = [...this.together].filter((r) => !this.arrived.has(r));
        reject(
          new Error(`held "${request}" ${this.boundMs} ms and ${missing.map((m) => `"${m}"`).join(", ")} never came while it was in flight: the reads went one after another`),
        );
      }, this.boundMs);
      this.waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** FakeReader whose gets, lists and SelfSubjectReview wait at the rendezvous (named as FakeReader records them). */
export class HeldReader extends FakeReader {
  readonly rendezvous: Rendezvous;

  constructor(objects: FakeObject[], rendezvous: Rendezvous) {
    super(objects);
    this.rendezvous = rendezvous;
  }

  override async get<K extends KindName>(kind: K, namespace: string, name: string): Promise<Parsed<ObjectOf<K>>> {
    await this.rendezvous.hold(`get ${kind} ${namespace}/${name}`);
    return super.get(kind, namespace, name);
  }

  override async list<K extends KindName>(kind: K, options: ListOptions): Promise<ListResult<ObjectOf<K>>> {
    await this.rendezvous.hold(`list ${kind} ${options.namespace ?? "*"}`);
    return super.list(kind, options);
  }

  override async whoAmI(): Promise<Identity> {
    await this.rendezvous.hold("create SelfSubjectReview");
    return super.whoAmI();
  }
}

/** FakeInspector whose read of the admission configuration waits at the rendezvous. */
export class HeldInspector extends FakeInspector {
  readonly rendezvous: Rendezvous;

  constructor(rendezvous: Rendezvous) {
    super();
    this.rendezvous = rendezvous;
  }

  override async admissionConfiguration(): Promise<AdmissionConfiguration> {
    await this.rendezvous.hold("get mutatingwebhookconfigurations/ptah-operator-admission");
    return super.admissionConfiguration();
  }
}
