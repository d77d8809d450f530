// Properties of kubectl's kubeconfig merge: the first file to set a name or current-context
// wins, whatever later files, duplicate names or missing files say; it never throws.
import fc from "fast-check";
import { afterAll, describe, it } from "vitest";
import { mergeKubeconfigs, type KubeconfigDoc, type SourceFile } from "../../src/kube/kubeconfig.ts";
import { Tally, runs } from "./runs.ts";

const tally = new Tally("kubeconfig merge");
afterAll(() => console.log(tally.summary()));

const NAMES = ["prod", "dev", "staging", "kind", "a", ""];
const SECTIONS = [
  ["clusters", "cluster"],
  ["users", "user"],
  ["contexts", "context"],
] as const;
type Section = (typeof SECTIONS)[number][0];

let serial = 0;
/** An entry whose body is unique, so "which one won" is observable. No path fields. */
const entry = (field: string) => fc.constantFrom(...NAMES).map((name) => ({ name, [field]: { id: `e${++serial}` } }));

const doc = fc.record(
  {
    clusters: fc.array(entry("cluster"), { maxLength: 5 }),
    users: fc.array(entry("user"), { maxLength: 5 }),
    contexts: fc.array(entry("context"), { maxLength: 5 }),
    "current-context": fc.constantFrom(...NAMES),
  },
  { requiredKeys: [] },
);

/** Files in KUBECONFIG order; `undefined` content is a missing file. */
const files = fc.array(fc.option(doc, { freq: 4, nil: undefined }), { maxLength: 5 }).map((docs) => docs.map((content, i): SourceFile => ({ path: `/k/${i}/config`, content })));

type Doc = Partial<Record<Section, { name: string }[]>> & { "current-context"?: string };

/** The first entry with each name, scanning files then entries in order: kubectl's rule, stated plainly. */
function firstWins(fs: readonly SourceFile[], section: Section): { name: string }[] {
  const out = new Map<string, { name: string }>();
  for (const f of fs) for (const e of (f.content as Doc | undefined)?.[section] ?? []) if (!out.has(e.name)) out.set(e.name, e);
  return [...out.values()];
}

function firstCurrentContext(fs: readonly SourceFile[]): string | undefined {
  for (const f of fs) {
    const c = (f.content as Doc | undefined)?.["current-context"];
    if (typeof c === "string" && c !== "") return c;
  }
  return undefined;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

describe("mergeKubeconfigs (property)", () => {
  const n = runs(5000);

  it("keeps, for every name, the entry of the first file (and first place) that sets it", () =>
    tally.check(
      "first wins per name",
      fc.property(files, (fs) => {
        const merged = mergeKubeconfigs(fs);
        if (fs.every((f) => f.content === undefined)) return merged === undefined;
        return SECTIONS.every(([section]) => same(merged![section], firstWins(fs, section)));
      }),
      n,
    ));

  it("takes current-context from the first file that sets it", () =>
    tally.check(
      "first current-context",
      fc.property(files, (fs) => mergeKubeconfigs(fs)?.["current-context"] === firstCurrentContext(fs)),
      n,
    ));

  it("never lists a name twice in a section", () =>
    tally.check(
      "names unique",
      fc.property(files, (fs) => {
        const merged = mergeKubeconfigs(fs);
        return !merged || SECTIONS.every(([section]) => new Set(merged[section].map((e) => e.name)).size === merged[section].length);
      }),
      n,
    ));

  it("is unchanged by later duplicates of names already set, and by missing files anywhere", () =>
    tally.check(
      "independent of duplicates and missing files",
      fc.property(files, fc.nat(), fc.nat(), (fs, where, which) => {
        const before = mergeKubeconfigs(fs);
        if (!before) return true;
        // A file appended at the end that repeats every known name with new bodies and another current-context.
        const dupes: Doc = { "current-context": "other" };
        for (const [section, field] of SECTIONS) dupes[section] = before[section].map((e) => ({ name: e.name, [field]: { id: `dupe-${which}` } }));
        const missing: SourceFile = { path: "/k/missing", content: undefined };
        const at = where % (fs.length + 1);
        const after = mergeKubeconfigs([...fs.slice(0, at), missing, ...fs.slice(at), { path: "/k/dupes", content: dupes }]);
        const expectedCurrent = before["current-context"] ?? "other";
        return SECTIONS.every(([section]) => same(after![section], before[section])) && after!["current-context"] === expectedCurrent;
      }),
      n,
    ));

  it("adding a file at the end only adds names, never replaces one", () =>
    tally.check(
      "later files only add",
      fc.property(files, doc, (fs, extra) => {
        const before = mergeKubeconfigs(fs);
        const after = mergeKubeconfigs([...fs, { path: "/k/extra", content: extra }])!;
        if (!before) return true;
        return SECTIONS.every(([section]) => same(after[section].slice(0, before[section].length), before[section]));
      }),
      n,
    ));

  it("never throws on arbitrary parsed YAML", () =>
    tally.check(
      "total on junk",
      fc.property(fc.array(fc.record({ path: fc.constantFrom("/a/config", "rel/config", ""), content: fc.anything({ maxDepth: 4 }) }), { maxLength: 4 }), (fs) => {
        const merged: KubeconfigDoc | undefined = mergeKubeconfigs(fs);
        return merged === undefined || (Array.isArray(merged.clusters) && Array.isArray(merged.users) && Array.isArray(merged.contexts));
      }),
      n,
    ));
});
