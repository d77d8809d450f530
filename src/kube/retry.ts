// How the transport and the watch wait: bounded retries of a read (429 with Retry-After, 500,
// 503, 504), and a sleep that an interrupt cuts short.

export const MAX_RETRIES = 3;
const MAX_RETRY_WAIT_MS = 10_000;

/**
 * Waits, or stops waiting when the signal aborts. The listener goes when the time is up: a
 * watch reconnecting for hours must not pile up listeners on one signal (Node warns after ten).
 */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = (): void => {
      clearTimeout(t);
      resolve();
    };
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Retry-After's seconds (capped), else exponential backoff from 200 ms. */
export function retryWait(retryAfter: string | string[] | undefined, attempt: number): number {
  const seconds = typeof retryAfter === "string" ? Number.parseInt(retryAfter, 10) : Number.NaN;
  return Number.isFinite(seconds) ? Math.min(seconds * 1000, MAX_RETRY_WAIT_MS) : 200 * 2 ** attempt;
}
