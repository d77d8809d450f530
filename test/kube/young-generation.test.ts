// kube/young-generation.ts sets V8's semi-space growth factor (and for a list --optimize-for-size)
// only on the V8 versions it was measured on (another might not know a flag, and would say so on
// stderr).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { tuneForLargeRead } from "../../src/kube/young-generation.ts";

describe("tuneForLargeRead", () => {
  it.each([
    ["11.3.244.8-node.33", true],
    ["12.4.254.21-node.33", false],
    ["13.6.233.10-node.27", false],
    ["10.2.154.26-node.26", false],
    ["14.0.1", false],
    ["", false],
  ])("V8 %j: set %s", (version, set) => {
    expect(tuneForLargeRead("object", version)).toBe(set);
    expect(tuneForLargeRead("list", version)).toBe(set);
  });

  it.each(["--semi-space-growth-factor=1", "--optimize-for-size"])("%s is a flag this Node's V8 knows: setting it writes nothing to stderr", (flag) => {
    const r = spawnSync(process.execPath, ["-e", `require("node:v8").setFlagsFromString(${JSON.stringify(flag)})`], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    // The check itself sees an unknown flag.
    const unknown = spawnSync(process.execPath, ["-e", 'require("node:v8").setFlagsFromString("--semi-space-growth-factor-nope=1")'], { encoding: "utf8" });
    expect(unknown.stderr).toMatch(/unrecognized flag/u);
  });
});
