// A tiny, reproducible .tar.gz writer and reader (POSIX ustar, regular files only). The release
// archives are built the same way on every runner (no GNU-vs-BSD tar differences): entries in
// the order given, owner 0:0, a fixed mtime, explicit modes.
import { gunzipSync, gzipSync } from "node:zlib";

const BLOCK = 512;

function octal(value, width) {
  // width - 1 digits, then NUL.
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

function header(name, size, mode, mtime) {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: name too long: ${name}`);
  const h = Buffer.alloc(BLOCK, 0);
  h.write(name, 0, 100, "utf8");
  h.write(octal(mode, 8), 100, 8, "ascii");
  h.write(octal(0, 8), 108, 8, "ascii"); // uid
  h.write(octal(0, 8), 116, 8, "ascii"); // gid
  h.write(octal(size, 12), 124, 12, "ascii");
  h.write(octal(mtime, 12), 136, 12, "ascii");
  h.write("        ", 148, 8, "ascii"); // checksum placeholder: spaces
  h.write("0", 156, 1, "ascii"); // regular file
  h.write("ustar\0", 257, 6, "ascii");
  h.write("00", 263, 2, "ascii");
  h.write("root", 265, 32, "ascii");
  h.write("root", 297, 32, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return h;
}

/**
 * @param {{ name: string, data: Buffer, mode: number }[]} entries
 * @param {{ mtime?: number }} [options] seconds since the epoch (default: 0)
 * @returns {Buffer} the gzipped archive
 */
export function createTarGz(entries, options = {}) {
  const mtime = options.mtime ?? 0;
  const parts = [];
  for (const e of entries) {
    parts.push(header(e.name, e.data.length, e.mode, mtime), e.data);
    const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad, 0));
  }
  parts.push(Buffer.alloc(BLOCK * 2, 0));
  // gzip's header carries no name and mtime 0 from zlib: the output depends on the input only.
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

/** Lists a .tar.gz written by createTarGz (or any plain ustar archive of regular files). */
export function readTarGz(buffer) {
  const tar = gunzipSync(buffer);
  const entries = [];
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const h = tar.subarray(offset, offset + BLOCK);
    if (h.every((b) => b === 0)) break;
    const field = (start, length) =>
      h
        .subarray(start, start + length)
        .toString("utf8")
        .replace(/\0.*$/su, "");
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = Number.parseInt(field(124, 12).trim() || "0", 8);
    const mode = Number.parseInt(field(100, 8).trim() || "0", 8);
    const type = field(156, 1) || "0";
    offset += BLOCK;
    entries.push({ name, size, mode, type, data: tar.subarray(offset, offset + size) });
    offset += Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
}
