// A stand-in for upstream's released Go kubectl-ptah: an executable file laid out as a Go build
// writes its build information (the magic, a 32-byte header, then the Go version and the module
// information as length-prefixed strings), inside an ELF-looking file. The plugin reads it and
// never runs it; as a program it is a shell script that answers --version as upstream's does, so a
// kubectl that runs it (when it is first on PATH) gets upstream's answer.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const SENTINEL_START = Buffer.from("3077af0c9274080241e1c107e6d618e6", "hex");
const SENTINEL_END = Buffer.from("f932433186182072008242104116d8f2", "hex");

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
}

function prefixed(b: Buffer): Buffer {
  return Buffer.concat([varint(b.length), b]);
}

/** The build information block of a Go 1.18+ build of `module`'s `mainPath` at `version`. */
export function goBuildInfo(module: string, version: string, mainPath = `${module}/cmd/kubectl-ptah`, go = "go1.24.4"): Buffer {
  const header = Buffer.alloc(32);
  header.write("\xff Go buildinf:", 0, "latin1");
  header[14] = 8; // pointer size
  header[15] = 2; // the strings follow inline
  const modinfo = Buffer.concat([SENTINEL_START, Buffer.from(`path\t${mainPath}\nmod\t${module}\t${version}\th1:fake=\nbuild\t-trimpath=true\n`), SENTINEL_END]);
  return Buffer.concat([header, prefixed(Buffer.from(go)), prefixed(modinfo)]);
}

/**
 * Writes `dir/kubectl-ptah`: upstream's binary at `version` as far as its bytes go. With
 * `runnable`, it starts as a shell script printing `kubectl-ptah <version>` for --version (the
 * build information block follows the script's exit); without, it starts as an ELF file.
 */
export function writeFakeUpstream(dir: string, version = "v0.2.10", runnable = false): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "kubectl-ptah");
  const head = runnable
    ? Buffer.from(`#!/bin/sh\nif [ "$1" = --version ]; then echo "kubectl-ptah ${version}"; exit 0; fi\necho 'kubectl-ptah: unknown command' >&2; exit 2\n`)
    : Buffer.concat([Buffer.from("\x7fELF\x02\x01\x01", "latin1"), Buffer.alloc(4096 - 7)]);
  writeFileSync(file, Buffer.concat([head, Buffer.alloc(100), goBuildInfo("github.com/stokaro/ptah-operator", version), Buffer.alloc(1000)]));
  chmodSync(file, 0o755);
  return file;
}
