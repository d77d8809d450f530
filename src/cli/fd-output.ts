// The answer written straight to a file descriptor. Building process.stdout for a pipe
// or a file loads Node's stream stack and net (~20 internal modules, ~6 ms of an offline start);
// an answer written with fs.writeSync costs none of that, and on a blocking pipe or a file it is
// what process.stdout does anyway (synchronous writes on Linux). A descriptor that cannot take a
// synchronous write (a non-blocking pipe full: EAGAIN; anything else unexpected) is handed to the
// stream after all, from the first byte not yet written, so nothing is lost or reordered. A closed
// reader (`| head`: EPIPE) calls onClosed, as the stream's EPIPE handler did. Pure of `process`:
// main.ts hands in the descriptor and the stream. The synchronous write is the process guard's
// (cli/process-guard.ts): to file descriptors 1 and 2 only.
import { writeStdio } from "./process-guard.ts";

export type WriteSync = (fd: number, buffer: Uint8Array, offset: number, length: number) => number;

export interface FdOutput {
  /** Writes `text` after everything written before; resolves once the OS (or the stream) has it. */
  write(text: string): Promise<void>;
}

export function fdOutput(fd: number, stream: () => NodeJS.WritableStream, onClosed: () => void, writeSync: WriteSync = writeStdio): FdOutput {
  let fallback: NodeJS.WritableStream | undefined;
  let pending: Promise<void> = Promise.resolve();

  const toStream = (bytes: Uint8Array): Promise<void> => {
    if (!fallback) {
      fallback = stream();
      fallback.on("error", (err: NodeJS.ErrnoException) => {
        if (err.code === "EPIPE") onClosed();
      });
    }
    const target = fallback;
    pending = pending.then(() => new Promise<void>((resolve) => void target.write(bytes, () => resolve())));
    return pending;
  };

  // The text is encoded a slice at a time into one buffer: an 8 MiB answer is not copied whole.
  let scratch: Buffer | undefined;

  return {
    write(text: string): Promise<void> {
      if (!text) return pending;
      if (fallback) return toStream(Buffer.from(text, "utf8"));
      for (let start = 0; start < text.length;) {
        let end = Math.min(start + SLICE, text.length);
        // A surrogate pair is never cut in two (each half alone would be written as U+FFFD).
        if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end++;
        scratch ??= Buffer.allocUnsafe(SLICE * 3 + 4);
        const length = scratch.write(text.slice(start, end), 0, "utf8");
        let offset = 0;
        while (offset < length) {
          let written: number;
          try {
            written = writeSync(fd, scratch, offset, length - offset);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === "EPIPE") {
              onClosed();
              return pending;
            }
            written = 0;
          }
          if (written <= 0) {
            // From the first byte not written, this slice's rest and the text after it.
            const rest = Buffer.concat([scratch.subarray(offset, length), Buffer.from(text.slice(end), "utf8")]);
            return toStream(rest);
          }
          offset += written;
        }
        start = end;
      }
      return pending;
    },
  };
}

/** UTF-16 code units encoded per slice (at most 3 bytes each, 4 per surrogate pair). */
const SLICE = 64 * 1024;

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}
