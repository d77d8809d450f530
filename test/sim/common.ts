// Shared pieces of the operator simulator: which namespaces it manages, the manager's execution
// binding, metav1.Condition bookkeeping, core Events, and small digests.
import { randomBytes } from "node:crypto";
import { digestCanonicalJSON, type CanonicalValue } from "../../src/plan/canonical.ts";
import { API_VERSION, resourcePath, type Kube, type Obj } from "./kube.ts";
import type { Condition } from "../support/lab.ts";
import { sha256 } from "./catalog.ts";

/**
 * The simulator (controller and admission webhooks) acts only in namespaces carrying this
 * label, so fixtures other tests write by hand in other namespaces are left alone.
 */
export const MANAGED_LABEL = "lab.ptah.run/operator-simulator";
export const MANAGED_VALUE = "enabled";

/**
 * Lab knobs (not the operator's): annotations a scenario sets on a PtahSchema (hold-phase Applying
 * on a PtahMigration too) in a labelled namespace to make the simulator produce a state the
 * operator reaches only by time or misfortune. Both are read from the live object on every pass, like everything else.
 * - HOLD_PHASE_ANNOTATION = "AwaitingApproval": no approval is reserved (one that matches nothing
 *   is still retired); = "Applying": the Apply Job never finishes, so its activeOperation ages past
 *   spec.execution.activeDeadlineSeconds (a stalled Apply). Remove it and the object moves on.
 * - RECONCILE_AFTER_ANNOTATION = "N" (seconds): on reaching InSync, status.nextReconciliationTime
 *   is N seconds later; the simulator never re-resolves, so past it the object is overdue.
 */
export const HOLD_PHASE_ANNOTATION = "lab.ptah.run/hold-phase";
export const RECONCILE_AFTER_ANNOTATION = "lab.ptah.run/reconcile-after-seconds";

export function heldIn(o: Obj, phase: "AwaitingApproval" | "Applying"): boolean {
  return o.metadata.annotations?.[HOLD_PHASE_ANNOTATION] === phase;
}

/** status.nextReconciliationTime from RECONCILE_AFTER_ANNOTATION, or undefined without it. */
export function nextReconciliationTime(o: Obj): string | undefined {
  const seconds = Number(o.metadata.annotations?.[RECONCILE_AFTER_ANNOTATION]);
  if (!Number.isInteger(seconds) || seconds < 0) return undefined;
  return new Date(Date.now() + seconds * 1000).toISOString().replace(/\.\d+Z$/, "Z");
}

/** The manager's execution binding: one fixed epoch for the lab. */
export const MANAGER = {
  executionBindingID: `v1-${sha256("ptah-lab simulator execution binding").slice(7, 39)}`,
  controllerImage: `registry.lab/ptah-operator@${sha256("ptah-lab controller image")}`,
  controllerRevision: "sim-0.1.0",
  controllerStateVersion: 1,
  ptahVersion: "v0.6.0",
  executorImage: `registry.lab/ptah@${sha256("ptah-lab executor image")}`,
  runnerImage: `registry.lab/ptah-runner@${sha256("ptah-lab runner image")}`,
  runnerProtocolVersion: 1,
};

/** Which manager and runner built and dispatched an Apply Job (status.*.dispatchedBy; audit only). */
export const DISPATCHED_BY = { controllerImage: MANAGER.controllerImage, controllerRevision: MANAGER.controllerRevision, runnerImage: MANAGER.runnerImage };

export function executionBindingStatus(): Record<string, unknown> {
  return {
    epoch: MANAGER.executionBindingID,
    controllerStateVersion: MANAGER.controllerStateVersion,
    ptahVersion: MANAGER.ptahVersion,
    executorImage: MANAGER.executorImage,
    runnerProtocolVersion: MANAGER.runnerProtocolVersion,
  };
}

export const nowISO = (): string => new Date().toISOString().replace(/\.\d+Z$/, "Z");

export function digestOf(value: CanonicalValue): string {
  return digestCanonicalJSON(value);
}

export function randomHex(bytes = 8): string {
  return randomBytes(bytes).toString("hex");
}

/** metav1.Condition as the CRDs require it: the same shape the e2e helpers write. */
export type { Condition };

/** A condition list edited in place: transition times move only when the status changes. */
export class Conditions {
  readonly list: Condition[];
  private readonly generation: number | undefined;
  constructor(existing: Condition[] | undefined, generation: number | undefined) {
    this.list = structuredClone(existing ?? []);
    this.generation = generation;
  }

  get(type: string): Condition | undefined {
    return this.list.find((c) => c.type === type);
  }

  is(type: string, status: Condition["status"], reason?: string): boolean {
    const c = this.get(type);
    return Boolean(c && c.status === status && (reason === undefined || c.reason === reason));
  }

  set(type: string, status: Condition["status"], reason: string, message: string): this {
    const existing = this.get(type);
    const next: Condition = {
      type,
      status,
      reason,
      message,
      lastTransitionTime: existing && existing.status === status ? existing.lastTransitionTime : nowISO(),
      ...(this.generation !== undefined ? { observedGeneration: this.generation } : {}),
    };
    if (existing) this.list[this.list.indexOf(existing)] = next;
    else this.list.push(next);
    return this;
  }

  remove(type: string): this {
    const i = this.list.findIndex((c) => c.type === type);
    if (i >= 0) this.list.splice(i, 1);
    return this;
  }
}

export function conditionOf(obj: Obj | undefined, type: string): Condition | undefined {
  return (obj?.status?.conditions as Condition[] | undefined)?.find((c) => c.type === type);
}

export function isCond(obj: Obj | undefined, type: string, status: string, reason?: string): boolean {
  const c = conditionOf(obj, type);
  return Boolean(c && c.status === status && (reason === undefined || c.reason === reason));
}

/** Records a core Event on an object, as the manager's event recorder does. Never throws. */
export async function emitEvent(kube: Kube, obj: Obj, type: "Normal" | "Warning", reason: string, message: string, log: (m: string) => void): Promise<void> {
  const ns = obj.metadata.namespace!;
  const now = new Date().toISOString();
  const event = {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: `${obj.metadata.name}.${randomHex(8)}`, namespace: ns },
    involvedObject: {
      apiVersion: obj.apiVersion ?? API_VERSION,
      kind: obj.kind,
      name: obj.metadata.name,
      namespace: ns,
      uid: obj.metadata.uid,
      resourceVersion: obj.metadata.resourceVersion,
    },
    reason,
    message,
    type,
    source: { component: "ptah-operator" },
    firstTimestamp: now.replace(/\.\d+Z$/, "Z"),
    lastTimestamp: now.replace(/\.\d+Z$/, "Z"),
    count: 1,
    reportingComponent: "ptah-operator",
    reportingInstance: "ptah-operator-simulator",
  };
  try {
    await kube.create(resourcePath("events", ns, undefined, ""), event);
  } catch (err) {
    log(`event ${reason} on ${obj.kind}/${obj.metadata.name}: ${(err as Error).message}`);
  }
}

/** The manager's ApprovalIdentity normalisation. */
export function normalizeGroups(groups: readonly string[] | undefined): string[] {
  return [...new Set((groups ?? []).map((g) => g.trim()).filter((g) => g !== ""))].sort().slice(0, 64);
}

/** What both controllers share: the status write (with the phase log line) and events. */
export abstract class KindController {
  protected readonly kube: Kube;
  protected readonly log: (m: string) => void;
  protected readonly stepMs: number;
  private readonly plural: string;
  private readonly kind: string;

  constructor(plural: string, kind: string, kube: Kube, log: (m: string) => void, stepMs: number) {
    this.plural = plural;
    this.kind = kind;
    this.kube = kube;
    this.log = log;
    this.stepMs = stepMs;
  }

  protected path(ns: string, name?: string): string {
    return resourcePath(this.plural, ns, name);
  }

  protected async write(o: Obj, status: Record<string, unknown>, c: Conditions): Promise<Obj> {
    const updated = await this.kube.mergePatch(`${this.path(o.metadata.namespace!, o.metadata.name)}/status`, {
      status: { ...status, observedGeneration: o.metadata.generation, conditions: c.list },
    });
    if (status.phase && status.phase !== o.status?.phase) {
      this.log(`${this.kind.toLowerCase()} ${o.metadata.namespace}/${o.metadata.name}: ${o.status?.phase ?? "-"} → ${String(status.phase as string)}`);
    }
    return updated;
  }

  protected event(obj: Obj, type: "Normal" | "Warning", reason: string, message: string): Promise<void> {
    return emitEvent(this.kube, { ...obj, kind: obj.kind ?? this.kind }, type, reason, message, this.log);
  }
}
