// Each kubectl-ptah on PATH is told apart by its bytes, never run: upstream's Go binary by its build
// information (module github.com/stokaro/ptah-operator and the version its build recorded).
import { mkdtempSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findPlugins } from "../../src/cli/local.ts";
import { identifyPlugin, parseBuildInfo } from "../../src/cli/plugin-identity.ts";
import { goBuildInfo, writeFakeUpstream } from "../support/fake-upstream-plugin.ts";

const dir = (): string => mkdtempSync(path.join(tmpdir(), "ptah-identity-"));

describe("identifyPlugin", () => {
  it("reads upstream's module and version from the build information", () => {
    expect(parseBuildInfo(goBuildInfo("github.com/stokaro/ptah-operator", "v0.2.10"))).toEqual({
      go: "go1.24.4",
      path: "github.com/stokaro/ptah-operator/cmd/kubectl-ptah",
      module: "github.com/stokaro/ptah-operator",
      version: "v0.2.10",
    });
    expect(identifyPlugin(writeFakeUpstream(dir()))).toEqual({ kind: "upstream", version: "v0.2.10", go: "go1.24.4" });
    expect(identifyPlugin(writeFakeUpstream(dir(), "v0.2.14", true))).toMatchObject({ kind: "upstream", version: "v0.2.14" });
  });

  it("finds the block across the seam between two reads", () => {
    const d = dir();
    const file = path.join(d, "kubectl-ptah");
    // The magic starts 3 bytes before the first 1 MiB boundary.
    writeFileSync(file, Buffer.concat([Buffer.alloc((1 << 20) - 3), goBuildInfo("github.com/stokaro/ptah-operator", "(devel)")]));
    expect(identifyPlugin(file)).toEqual({ kind: "upstream", version: undefined, go: "go1.24.4" });
  });

  it("tells another Go program, a script and an unreadable file apart", () => {
    const d = dir();
    const go = path.join(d, "go");
    writeFileSync(go, Buffer.concat([Buffer.from("\x7fELF"), goBuildInfo("example.com/other", "v1.0.0", "example.com/other")]));
    expect(identifyPlugin(go)).toEqual({ kind: "go", module: "example.com/other" });
    const script = path.join(d, "script");
    writeFileSync(script, "#!/usr/bin/env node\nrequire('./x')\n");
    expect(identifyPlugin(script)).toEqual({ kind: "script" });
    expect(identifyPlugin(path.join(d, "missing"))).toEqual({ kind: "unknown", why: "not readable (ENOENT)" });
    const elf = path.join(d, "elf");
    writeFileSync(elf, Buffer.from("\x7fELF plain"));
    expect(identifyPlugin(elf)).toEqual({ kind: "unknown", why: "not a Go program (no Go build information)" });
  });

  it("findPlugins identifies every kubectl-ptah but this one", () => {
    const ours = dir();
    const self = path.join(ours, "kubectl-ptah");
    writeFileSync(self, "#!/bin/sh\n");
    chmodSync(self, 0o755);
    const theirs = dir();
    writeFakeUpstream(theirs);
    const found = findPlugins(`${theirs}${path.delimiter}${ours}`, [self], "linux");
    expect(found).toEqual([
      { path: path.join(theirs, "kubectl-ptah"), self: false, identity: { kind: "upstream", version: "v0.2.10", go: "go1.24.4" } },
      { path: self, self: true },
    ]);
  });
});
