// The kubeconfig's YAML bounds (src/kube/yaml-aliases.ts) against kubectl's own reading: generated
// alias chains, with plain nodes beside them, are refused for excessive aliasing exactly when
// kubectl refuses them (go-yaml's rule, which kubectl reads every kubeconfig with). And the
// review's bomb, an alias that contains itself and a chain of aliases deeper than the bound.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { loadYaml } from "../../src/kube/kubeconfig-yaml.ts";
import { allowedAliasRatio } from "../../src/kube/yaml-aliases.ts";
import { aliasBomb } from "../support/hostile-files.ts";
import { needTool } from "../support/machine-tools.ts";

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-yaml-aliases-"));
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

interface Chain {
  /** Each level: a sequence or a mapping of `aliases` aliases of the level before, and `plain` scalars. */
  readonly levels: readonly { readonly map: boolean; readonly aliases: number; readonly plain: number }[];
  readonly base: number;
  /** How many times the last level is used, and where the filler of plain scalars goes. */
  readonly uses: number;
  readonly filler: number;
  readonly fillerFirst: boolean;
}

function chainYaml(c: Chain): string {
  const items = (n: number, f: (i: number) => string): string[] => Array.from({ length: n }, (_, i) => f(i));
  const collection = (map: boolean, values: string[]): string => (map ? `{${values.map((v, i) => `k${i}: ${v}`).join(", ")}}` : `[${values.join(", ")}]`);
  const lines = [
    `  l0: &l0 ${collection(
      false,
      items(c.base, () => "x"),
    )}`,
  ];
  c.levels.forEach((l, i) => {
    const values = [...items(l.aliases, () => `*l${i}`), ...items(l.plain, (j) => `p${j}`)];
    lines.push(`  l${i + 1}: &l${i + 1} ${collection(l.map, values)}`);
  });
  lines.push(`  use: [${items(c.uses, () => `*l${c.levels.length}`).join(", ")}]`);
  const filler = `  filler: [${items(c.filler, () => "f").join(", ")}]`;
  const body = c.fillerFirst ? [filler, ...lines] : [...lines, filler];
  return ["apiVersion: v1", "kind: Config", "clusters: []", "users: []", "contexts: []", "preferences:", ...body, ""].join("\n");
}

const chains: fc.Arbitrary<Chain> = fc.record({
  levels: fc.array(fc.record({ map: fc.boolean(), aliases: fc.integer({ min: 1, max: 5 }), plain: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 7 }),
  base: fc.integer({ min: 1, max: 9 }),
  uses: fc.integer({ min: 1, max: 6 }),
  filler: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 200, max: 6000 })),
  fillerFirst: fc.boolean(),
});

/**
 * The test's own count of a chain, as go-yaml decodes it (the alias node itself plain, its anchor's
 * nodes aliased): how many plain and aliased nodes it has without the filler.
 */
function countOf(c: Omit<Chain, "filler">): { plain: number; aliased: number } {
  let size = 1 + c.base; // l0 and its scalars
  let plain = 1 + 4 * 2 + 1 + 1 + 1 + size + 1 + 1; // document, four keys with their [] values, preferences and its map, l0's key, l0, use's key and use
  plain += 2; // filler's key and sequence
  let aliased = 0;
  for (const l of c.levels) {
    const keys = l.map ? l.aliases + l.plain : 0;
    plain += 1 + 1 + keys + l.aliases + l.plain; // the level's key, itself, its keys, its alias nodes and scalars
    aliased += l.aliases * size;
    size = 1 + keys + l.aliases * (1 + size) + l.plain;
  }
  return { plain: plain + c.uses, aliased: aliased + c.uses * size };
}

/** Chains whose filler puts the aliased share within a few nodes of 99%, on either side. */
const nearTheLine: fc.Arbitrary<Chain> = fc.record({ chain: chains, delta: fc.integer({ min: -4, max: 4 }) }).map(({ chain, delta }) => {
  const { plain, aliased } = countOf(chain);
  return { ...chain, filler: Math.max(0, Math.round(aliased / 0.99 - aliased - plain) + delta) };
});

const refusedForAliasing = (text: string): boolean => {
  try {
    loadYaml(text);
    return false;
  } catch (err) {
    if (/excessive aliasing/u.test((err as Error).message)) return true;
    throw err;
  }
};

describe("aliases in a kubeconfig", () => {
  it("go-yaml's allowed share: 99% up to 400,000 nodes, 10% from 4,000,000, a straight line between", () => {
    const ratios = [0, 400_000, 2_200_000, 4_000_000, 9_000_000].map(allowedAliasRatio);
    [0.99, 0.99, 0.545, 0.1, 0.1].forEach((r, i) => expect(ratios[i]).toBeCloseTo(r, 12));
  });

  it("the review's bomb of 1.4 KB is refused for excessive aliasing, as kubectl refuses it", () => {
    expect(() => loadYaml(aliasBomb())).toThrow("yaml: document contains excessive aliasing");
  });

  it("an anchor whose value holds its own alias, and a chain of aliases deeper than the bound once expanded, are refused", () => {
    expect(() => loadYaml("a: &a [1, *a]\n")).toThrow("yaml: an anchor's value contains an alias of itself");
    const chain = ["a0: &a0 [x]", ...Array.from({ length: 200 }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}]`)].join("\n");
    expect(() => loadYaml(chain)).toThrow("yaml: nesting is deeper than 128 levels");
    expect(() => loadYaml(`${"[".repeat(5000)}${"]".repeat(5000)}`)).toThrow("yaml: nesting is deeper than 128 levels");
    // At the bound itself: read; one more level, refused in the same words.
    expect(loadYaml(`${"[".repeat(128)}x${"]".repeat(128)}`)).toBeDefined();
    expect(() => loadYaml(`${"[".repeat(129)}x${"]".repeat(129)}`)).toThrow("yaml: nesting is deeper than 128 levels");
  });

  it("refuses for aliasing exactly the generated documents kubectl refuses (go-yaml's rule, kubectl the oracle)", (ctx) => {
    const kubectl = needTool(ctx, "kubectl");
    let refused = 0;
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(chains, nearTheLine), (c) => {
        const text = chainYaml(c);
        const file = path.join(DIR, "config");
        fs.writeFileSync(file, text);
        const theirs = spawnSync(kubectl, ["config", "view", "--kubeconfig", file], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: DIR } });
        const kubectlRefused = /excessive aliasing/u.test(theirs.stderr);
        if (!kubectlRefused) expect(theirs.status, theirs.stderr).toBe(0);
        const ours = refusedForAliasing(text);
        expect(ours, `kubectl ${kubectlRefused ? "refused" : "read"} ${JSON.stringify(c)}`).toBe(kubectlRefused);
        if (ours) refused++;
        else accepted++;
      }),
      { numRuns: 100, seed: 55 },
    );
    console.log(`yaml aliases against kubectl: ${refused + accepted} generated documents, ${refused} refused by both, ${accepted} read by both`);
    expect(refused).toBeGreaterThan(10);
    expect(accepted).toBeGreaterThan(10);
  });
});
