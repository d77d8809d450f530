// A file read whole but at most a bound, one chunk at a time, so /dev/zero, a pipe or a device that
// never ends is refused as soon as it passes the bound, holding no more than that. The kubeconfig
// (kube/connect.ts) and the files -f names (cli/context.ts) are read with it.
import { fstatSync, readSync } from "node:fs";

/** How much is read at a time (the last read may pass the bound by less than this). */
const READ_CHUNK = 1024 * 1024;

/** The bytes of the open `fd`; `tooLarge()` is thrown once they pass `maxBytes` (a regular file's size is checked first). */
export function readAtMost(fd: number, maxBytes: number, tooLarge: () => Error): Buffer {
  const stat = fstatSync(fd);
  if (stat.isFile() && stat.size > maxBytes) throw tooLarge();
  const parts: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(READ_CHUNK);
    const n = readSync(fd, chunk, 0, READ_CHUNK, null);
    if (n === 0) break;
    total += n;
    if (total > maxBytes) throw tooLarge();
    parts.push(n === READ_CHUNK ? chunk : chunk.subarray(0, n));
  }
  return Buffer.concat(parts, total);
}
