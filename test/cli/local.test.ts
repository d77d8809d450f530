// findPlugins over real folders: every executable kubectl-ptah on PATH in order, this plugin
// recognised through a symlink (how krew and npm install it), non-executables ignored.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findPlugins } from "../../src/cli/local.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-path-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function dir(name: string): string {
  const d = path.join(root, name);
  fs.mkdirSync(d, { recursive: true });
  return d;
}

function executable(file: string, mode = 0o755): string {
  fs.writeFileSync(file, "#!/bin/sh\n");
  fs.chmodSync(file, mode);
  return file;
}

describe("findPlugins", () => {
  const self = executable(path.join(dir("store"), "kubectl-ptah.js"));
  const krew = dir("krew-bin");
  fs.symlinkSync(self, path.join(krew, "kubectl-ptah"));
  const go = dir("go-bin");
  executable(path.join(go, "kubectl-ptah"));
  const notExec = dir("not-exec");
  executable(path.join(notExec, "kubectl-ptah"), 0o644);

  it("lists every kubectl-ptah in PATH order and marks the one that resolves to this plugin", () => {
    const PATH = [dir("empty"), notExec, go, krew, go].join(path.delimiter);
    expect(findPlugins(PATH, [self], "linux")).toEqual([
      { path: path.join(go, "kubectl-ptah"), self: false, identity: { kind: "script" } },
      { path: path.join(krew, "kubectl-ptah"), self: true },
    ]);
  });

  it("finds nothing on an empty PATH", () => {
    expect(findPlugins("", [self], "linux")).toEqual([]);
  });
});
