// Which program is each kubectl-ptah on PATH? Upstream now releases its own Go binary of that
// name, and both print `kubectl-ptah <version>` for --version, so running one would not tell
// them apart; running an unknown executable from an inspector is also a new child-process
// capability we do not want. Instead the file is read (never run): a Go program carries its build
// information in a block that starts with a fixed magic, holding the Go version and the main
// module's path and version. Upstream's binary is the Go program whose main package is in
// github.com/stokaro/ptah-operator; its version is that module's version as the build recorded it.
import { closeSync, openSync, readSync } from "node:fs";
import type { PluginIdentity } from "../commands/command-types.ts";

export const UPSTREAM_MODULE = "github.com/stokaro/ptah-operator";

/** The Go build information block's magic: 0xff, then " Go buildinf:". */
const MAGIC = Buffer.from("\xff Go buildinf:", "latin1");
const HEADER_BYTES = 32;
const CHUNK = 1 << 20;
/** Upstream's binaries are tens of MiB; a file beyond this is not read to its end. */
const MAX_SCAN = 512 * CHUNK;

/** An unsigned varint (Go's encoding/binary) at `at`: [value, next offset], or undefined. */
function uvarint(b: Buffer, at: number): [number, number] | undefined {
  let value = 0;
  let shift = 0;
  for (let i = at; i < b.length && shift < 35; i++) {
    const byte = b[i]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, i + 1];
    shift += 7;
  }
  return undefined;
}

function lengthPrefixed(b: Buffer, at: number): [string, number] | undefined {
  const n = uvarint(b, at);
  if (!n || n[1] + n[0] > b.length) return undefined;
  return [b.subarray(n[1], n[1] + n[0]).toString("latin1"), n[1] + n[0]];
}

/**
 * Reads a Go build information block (its 32-byte header, then the Go version and the module
 * information as length-prefixed strings, Go 1.18 and later): the Go version, the main package's
 * path and the main module's path and version.
 */
export function parseBuildInfo(block: Buffer): { go: string; path: string; module: string; version: string } | undefined {
  if (block.length < HEADER_BYTES || !block.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const inline = (block[15]! & 0x2) !== 0;
  if (!inline) return undefined; // before Go 1.18 the block holds pointers: not upstream's (built with a newer Go)
  const go = lengthPrefixed(block, HEADER_BYTES);
  if (!go) return undefined;
  const info = lengthPrefixed(block, go[1]);
  const lines = (info?.[0] ?? "").split("\n");
  const field = (key: string): string[] => (lines.find((l) => l.split("\t")[0]?.endsWith(key)) ?? "").split("\t").slice(1);
  const [path = ""] = field("path");
  const [module = "", version = ""] =
    lines
      .find((l) => l.startsWith("mod\t"))
      ?.split("\t")
      .slice(1) ?? [];
  return { go: go[0], path, module, version };
}

/** The bytes from the first MAGIC on, up to 64 KiB (the block and its strings), or undefined. */
function findBlock(fd: number): Buffer | undefined {
  const buf = Buffer.alloc(CHUNK);
  for (let offset = 0; offset < MAX_SCAN;) {
    const n = readSync(fd, buf, 0, CHUNK, offset);
    if (n <= 0) return undefined;
    const at = buf.subarray(0, n).indexOf(MAGIC);
    if (at >= 0) {
      const block = Buffer.alloc(64 * 1024);
      return block.subarray(0, readSync(fd, block, 0, block.length, offset + at));
    }
    if (n < CHUNK) return undefined;
    // The next read overlaps this one by less than the magic, so a magic across the seam is found.
    offset += n - (MAGIC.length - 1);
  }
  return undefined;
}

/** Identifies the executable at `file` by its bytes; never runs it. */
export function identifyPlugin(file: string): PluginIdentity {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (err) {
    return { kind: "unknown", why: `not readable (${(err as NodeJS.ErrnoException).code ?? "error"})` };
  }
  try {
    const block = findBlock(fd);
    const info = block && parseBuildInfo(block);
    if (!info) {
      const head = Buffer.alloc(2);
      readSync(fd, head, 0, 2, 0);
      return head.toString("latin1") === "#!" ? { kind: "script" } : { kind: "unknown", why: "not a Go program (no Go build information)" };
    }
    if (info.module !== UPSTREAM_MODULE && !info.path.startsWith(`${UPSTREAM_MODULE}/`)) return { kind: "go", module: info.module || info.path || "unnamed" };
    const version = info.version && info.version !== "(devel)" ? info.version : undefined;
    return { kind: "upstream", version, go: info.go || undefined };
  } finally {
    closeSync(fd);
  }
}
