// The answer written straight to a file descriptor (issue 30). Building process.stdout for a pipe
// or a file loads Node's stream stack and net (~20 internal modules, ~6 ms of an offline start);
// an answer written with fs.writeSync costs none of that, and on a blocking pipe or a file it is
// what process.stdout does anyway (synchronous writes on Linux). A descriptor that cannot take a
// synchronous write (a non-blocking pipe full: EAGAIN; anything else unexpected) is handed to the
// stream after all, from the first byte not yet written, so nothing is lost or reordered. A closed
// reader (`| head`: EPIPE) calls onClosed, as the stream's EPIPE handler did. Pure of `process`:
// main.ts hands in the descriptor and the stream.
import fs from "node:fs";

export type WriteSync = (fd: number, buffer: Uint8Array, offset: number, length: number) => number;

export interface FdOutput {
  /** Writes `text` after everything written before; resolves once the OS (or the stream) has it. */
  write(text: string): Promise<void>;
}

export function fdOutput(fd: number, stream: () => NodeJS.WritableStream, onClosed: () => void, writeSync: WriteSync = fs.writeSync): FdOutput {
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

  return {
    write(text: string): Promise<void> {
      if (!text) return pending;
      const bytes = Buffer.from(text, "utf8");
      if (fallback) return toStream(bytes);
      let offset = 0;
      while (offset < bytes.length) {
        let written: number;
        try {
          written = writeSync(fd, bytes, offset, bytes.length - offset);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === "EPIPE") {
            onClosed();
            return pending;
          }
          return toStream(bytes.subarray(offset));
        }
        if (written <= 0) return toStream(bytes.subarray(offset));
        offset += written;
      }
      return pending;
    },
  };
}
