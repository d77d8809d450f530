// The list decoder (kube/list-page.ts) as the reader uses it, and what a large read changes:
// its refusal is the reader's own error, and a read past 256 KB keeps V8's young generation small
// (kube/young-generation.ts).
import { Buffer } from "node:buffer";
import { InvalidPageJson, ListPageDecoder, type PageEnvelope } from "./list-page.ts";
import type { LargeRead } from "./young-generation.ts";

/**
 * A list's bytes so far, across its pages, or one object's (a plan chunk): past this many, the
 * young generation is kept small from then on (kube/young-generation.ts). Loading node:v8 for
 * that costs ~2.6 ms, which a read this small (a list of about 40 schemas) would notice and a
 * longer one does not.
 */
const LARGE_READ_BYTES = 256 * 1024;
const tuned = new Set<LargeRead>();

/**
 * A read of `bytes` so far: a large one keeps the young generation small from then on (and a
 * list's heap, kube/young-generation.ts). Nothing waits for it, so its failure (a chunk that
 * cannot load) is only memory, never the command's.
 */
export function noteRead(bytes: number, read: LargeRead): void {
  if (tuned.has(read) || bytes <= LARGE_READ_BYTES) return;
  tuned.add(read);
  import("./young-generation.ts").then(
    (m) => m.tuneForLargeRead(read),
    () => false,
  );
}

/** One page's decoder as the reader uses it: its refusal is the reader's error (`invalid`). */
export interface PageReader {
  readonly write: (chunk: Buffer) => void;
  readonly end: () => PageEnvelope;
  /** After end(): what the page is when it is not a list ("a JSON string", …), else undefined. */
  readonly notAList: () => string | undefined;
}

export function pageReader(onItem: (item: unknown) => void, invalid: () => Error, list: { received: number }): PageReader {
  const decoder = new ListPageDecoder(onItem);
  const refused = (err: unknown): never => {
    throw err instanceof InvalidPageJson ? invalid() : err;
  };
  return {
    write: (chunk) => {
      list.received += chunk.length;
      noteRead(list.received, "list");
      try {
        decoder.write(chunk);
      } catch (err) {
        refused(err);
      }
    },
    end: () => {
      try {
        return decoder.end();
      } catch (err) {
        return refused(err);
      }
    },
    notAList: () => decoder.notAList(),
  };
}
