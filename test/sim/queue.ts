// A keyed work queue: one reconcile per key at a time, requests that arrive while a key runs
// are folded into one re-run, and a key that asked to be requeued after N ms is not run again
// before then (so the simulator's own status writes, seen again through the watch, do not skip
// a phase's pacing).
export type Handler = (key: string) => Promise<number | undefined>;

export class WorkQueue {
  private readonly timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly running = new Set<string>();
  private readonly again = new Map<string, number>();
  private readonly notBefore = new Map<string, number>();
  private readonly failures = new Map<string, number>();

  private readonly handler: Handler;
  private readonly log: (m: string) => void;

  constructor(handler: Handler, log: (m: string) => void) {
    this.handler = handler;
    this.log = log;
  }

  add(key: string, delayMs = 0): void {
    const at = Math.max(Date.now() + delayMs, this.notBefore.get(key) ?? 0);
    if (this.running.has(key)) {
      const prev = this.again.get(key);
      this.again.set(key, prev === undefined ? at : Math.min(prev, at));
      return;
    }
    const current = this.timers.get(key);
    if (current && current.at <= at) return;
    if (current) clearTimeout(current.timer);
    const timer = setTimeout(() => void this.run(key), Math.max(0, at - Date.now()));
    this.timers.set(key, { at, timer });
  }

  private async run(key: string): Promise<void> {
    this.timers.delete(key);
    this.running.add(key);
    let requeue: number | undefined;
    try {
      requeue = await this.handler(key);
      this.failures.delete(key);
    } catch (err) {
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      requeue = Math.min(250 * 2 ** n, 10_000);
      this.log(`reconcile ${key} failed (attempt ${n}, retry in ${requeue}ms): ${(err as Error).stack ?? String(err)}`);
    } finally {
      this.running.delete(key);
    }
    if (requeue !== undefined) this.notBefore.set(key, Date.now() + requeue);
    else this.notBefore.delete(key);
    const again = this.again.get(key);
    this.again.delete(key);
    if (requeue !== undefined) this.add(key, requeue);
    if (again !== undefined) this.add(key, Math.max(0, again - Date.now()));
  }
}
