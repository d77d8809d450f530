// A long list's memory: V8 doubles the young generation (its semi-spaces, 1 MiB at the
// start) whenever many objects survive a scavenge, up to 16 MiB each on 64-bit Node 20 — and
// reading thousands of items that are all kept is exactly that. The doubled space is then
// committed for the rest of the run: at 5,000 schemas `status -A` held 84 MiB of heap for 52 MiB
// of objects, and peaked at 150 MB RSS. With the growth factor at 1 the young generation stays at
// its first size, the survivors move to the old generation as they would anyway, and the same
// command peaks at 110 MB, in the same time (docs/performance.md, "Where the time goes now").
//
// V8 reads this flag each time the young generation would grow, so setting it during the run
// takes effect (node:v8 says flags set after start may not; this one was measured to). It is set
// only for the V8 versions it was measured on: another V8 might not know it, and would say so
// on stderr.
//
// A long list also sets --optimize-for-size, which V8 reads each time it sets the old
// generation's next limit: the heap then grows by less between full collections, so the items
// and rows a view has finished with are collected sooner. At 5,000 schemas (medians of 2, the
// bench's lab, idle): `ledger -A` 143.6 -> 109.8 MB peak RSS, `approvals -A` 127.5 -> 114.0,
// `status -A` 112.2 -> 110.3, for 10-25 % more CPU (`ledger -A` 4.8 -> 5.4 s user) and no wall
// time a run can tell from the server's (13-15 s). One large object (the 8 MiB plan) is what it
// holds, so it gains nothing there (160 -> 159 MB) and pays the CPU: a GET does not set it.
import { setFlagsFromString } from "node:v8";

const MEASURED_V8 = new Set([11]); // Node 20; Node 22 and 24 (V8 12, 13) not measured yet

/** What a large read was: a list's pages (kept item by item), or one object's answer. */
export type LargeRead = "list" | "object";

export function tuneForLargeRead(read: LargeRead, v8Version: string = process.versions.v8): boolean {
  if (!MEASURED_V8.has(Number(v8Version.split(".")[0]))) return false;
  setFlagsFromString("--semi-space-growth-factor=1");
  if (read === "list") setFlagsFromString("--optimize-for-size");
  return true;
}
