// lab/bundle.mjs's cache: lab/lab.mjs runs the TypeScript lab from a bundle keyed by its inputs'
// contents; an unchanged tree reuses the bundle without building, any edited input rebuilds it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cachedBundle } from "../../lab/bundle.mjs";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tree(): { root: string; entry: string; dir: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-lab-bundle-"));
  dirs.push(root);
  fs.writeFileSync(path.join(root, "main.ts"), 'import { word } from "./word.ts";\nexport const greeting: string = `hello ${word}`;\n');
  fs.writeFileSync(path.join(root, "word.ts"), 'export const word = "lab";\n');
  return { root, entry: path.join(root, "main.ts"), dir: path.join(root, "cache") };
}

async function greeting(file: string): Promise<string> {
  return ((await import(`${file}?t=${Date.now()}`)) as { greeting: string }).greeting;
}

describe("the lab's bundle cache", () => {
  it("reuses the bundle while no input changes and rebuilds when one does", async () => {
    const t = tree();
    const first = await cachedBundle({ ...t, name: "lab" });
    expect(await greeting(first)).toBe("hello lab");
    const built = fs.statSync(first).mtimeMs;
    const again = await cachedBundle({ ...t, name: "lab" });
    expect(again).toBe(first);
    expect(fs.statSync(again).mtimeMs).toBe(built);

    // an edit of an imported file, not the entry
    fs.writeFileSync(path.join(t.root, "word.ts"), 'export const word = "world";\n');
    const rebuilt = await cachedBundle({ ...t, name: "lab" });
    expect(rebuilt).not.toBe(first);
    expect(await greeting(rebuilt)).toBe("hello world");
  });

  it("rebuilds when the recorded bundle is gone", async () => {
    const t = tree();
    const first = await cachedBundle({ ...t, name: "lab" });
    fs.rmSync(first);
    expect(await cachedBundle({ ...t, name: "lab" })).toBe(first);
    expect(fs.existsSync(first)).toBe(true);
  });
});
