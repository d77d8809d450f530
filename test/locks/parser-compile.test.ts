// PostgreSQL's parser is compiled by V8's baseline compiler only (src/locks/parser.ts says why): the
// flag is set before the WebAssembly module is made, and it is a flag this Node's V8 knows (an
// unknown one would be said on stderr).
import { spawnSync } from "node:child_process";
import { describe, expect, it, vi } from "vitest";

const order: string[] = [];
vi.mock("node:v8", () => ({ setFlagsFromString: (flag: string) => void order.push(`flag ${flag}`) }));
vi.mock("libpg-query/wasm/libpg-query.js", () => ({
  default: () => {
    order.push("module made");
    return Promise.resolve({});
  },
}));

const { preloadParser } = await import("../../src/locks/parser.ts");

describe("the parser's compilation", () => {
  it("sets --liftoff-only before the module is made", async () => {
    // The mocked module lacks the parse function: the load rejects, after the order is written.
    await expect(preloadParser()).rejects.toThrow(/lacks the parse function/u);
    expect(order).toEqual(["flag --liftoff-only", "module made"]);
  });

  it("--liftoff-only is a flag this Node's V8 knows: setting it writes nothing to stderr", () => {
    const r = spawnSync(process.execPath, ["-e", 'require("node:v8").setFlagsFromString("--liftoff-only")'], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    // The check itself sees an unknown flag.
    const unknown = spawnSync(process.execPath, ["-e", 'require("node:v8").setFlagsFromString("--liftoff-only-nope")'], { encoding: "utf8" });
    expect(unknown.stderr).toMatch(/unrecognized flag/u);
  });
});
