// docs/rbac.md's words on each ClusterRole of rbac/ against the role's YAML, read from the page:
// - ptah-viewer reads "every `operator.ptah.run` kind except `X`" (the kinds: lab/crds/), and every
//   other resource it grants is named in its paragraph;
// - ptah-approver is "the viewer's rules plus create on `A`, `B` and `C`", exactly;
// - ptah-endorser reads the viewer's operator.ptah.run kinds "plus `patch` on `X`", exactly;
// - the chart's operator approver reads "every namespaced `operator.ptah.run` kind", creates only the
//   approval and acknowledgment kinds, and grants none of what its paragraph says it does not.
// The table of which commands each role covers is proven on the lab (test/e2e/doctor.e2e.test.ts,
// test/e2e/plans.e2e.test.ts); the RBAC table above it is generated (rbac-page.test.ts).
import fs from "node:fs";
import path from "node:path";
import yaml from "js-yaml";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "..", "..");
const GROUP = "operator.ptah.run";
const page = fs.readFileSync(path.join(REPO, "docs", "rbac.md"), "utf8");

interface Rule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames?: readonly string[];
}

function rules(role: string): Rule[] {
  const doc = yaml.load(fs.readFileSync(path.join(REPO, "rbac", `${role}.yaml`), "utf8")) as { rules: Rule[] };
  return doc.rules;
}

/** The resources of `group` a role grants `verb` on. */
function granted(rs: readonly Rule[], group: string, verb: string): string[] {
  return [...new Set(rs.filter((r) => r.apiGroups.includes(group) && r.verbs.includes(verb)).flatMap((r) => r.resources))].slice().sort();
}

/**
 * Every operator.ptah.run kind the operator serves (its CRDs, as the lab installs them), with its
 * scope. One of them repeats a mapping key deep in its schema; `json: true` reads it as the API
 * server does (the last one wins) instead of refusing the file.
 */
const CRDS = fs
  .readdirSync(path.join(REPO, "lab", "crds"))
  .map((f) => yaml.load(fs.readFileSync(path.join(REPO, "lab", "crds", f), "utf8"), { json: true }) as { spec: { group: string; scope: string; names: { plural: string } } })
  .filter((c) => c.spec.group === GROUP);

/** The page's paragraph about a role: from its bold name to the next blank line. */
function about(bold: string): string {
  const at = page.indexOf(`**\`${bold}\`**`);
  if (at < 0) throw new Error(`docs/rbac.md says nothing of ${bold}`);
  const rest = page.slice(at);
  return rest.slice(0, rest.search(/\n\s*\n/u)).replace(/\s+/gu, " ");
}

const names = (text: string): string[] => [...text.matchAll(/`([^`]+)`/gu)].map((m) => m[1]!);

describe("docs/rbac.md's roles are rbac/*.yaml's", () => {
  const viewer = rules("ptah-viewer");

  it("ptah-viewer: every kind but the one the page excepts, and each other resource it grants named", () => {
    const text = about("ptah-viewer").split("**`ptah-approver`**")[0]!;
    const except = /every `operator\.ptah\.run` kind except `([^`]+)`/u.exec(text);
    expect(except, "the viewer's paragraph: every `operator.ptah.run` kind except …").not.toBeNull();
    const all = CRDS.map((c) => c.spec.names.plural);
    expect(all).toContain(except![1]);
    for (const verb of ["get", "list", "watch"])
      expect(granted(viewer, GROUP, verb)).toEqual(
        all
          .filter((k) => k !== except![1])
          .slice()
          .sort(),
      );
    const others = [...new Set(viewer.filter((r) => !r.apiGroups.includes(GROUP)).flatMap((r) => r.resources))];
    const mentioned = names(text).map((n) => n.split(".")[0]!);
    expect(others.filter((r) => !mentioned.includes(r) && !new RegExp(`\\b${r}\\b`, "u").test(text))).toEqual([]);
    expect(viewer.flatMap((r) => r.verbs).filter((v) => !["get", "list", "watch"].includes(v))).toEqual([]);
  });

  it("ptah-approver: the viewer's rules plus create on exactly the kinds the page names", () => {
    const approver = rules("ptah-approver");
    const plus = /the viewer's rules plus create on ([^.]*)\./u.exec(about("ptah-approver"));
    expect(plus, "the approver's paragraph: the viewer's rules plus create on …").not.toBeNull();
    expect(granted(approver, GROUP, "create")).toEqual(names(plus![1]!).slice().sort());
    const key = (r: Rule): string => JSON.stringify(r);
    expect(
      approver
        .filter((r) => !r.verbs.includes("create"))
        .map(key)
        .slice()
        .sort(),
    ).toEqual(viewer.map(key).slice().sort());
  });

  it("ptah-endorser: the viewer's reads of the operator's kinds plus patch on exactly what the page names", () => {
    const endorser = rules("ptah-endorser");
    const plus = /plus `patch` on `([^`]+)`/u.exec(about("ptah-endorser"));
    expect(plus, "the endorser's paragraph: plus `patch` on …").not.toBeNull();
    expect(granted(endorser, GROUP, "patch")).toEqual([plus![1]]);
    expect(granted(endorser, GROUP, "get")).toEqual(granted(viewer, GROUP, "get"));
    expect(granted(endorser, GROUP, "create")).toEqual([]);
  });

  it("the chart's approver: every namespaced kind, create on the approval and acknowledgment kinds, none of what it lacks", () => {
    const chart = rules("ptah-operator-approver");
    const text = about("<release>-ptah-operator-approver");
    expect(text).toContain("get, list, watch on every namespaced `operator.ptah.run` kind and create on the approval and acknowledgment kinds");
    const namespaced = CRDS.filter((c) => c.spec.scope === "Namespaced").map((c) => c.spec.names.plural);
    for (const verb of ["get", "list", "watch"]) expect(granted(chart, GROUP, verb)).toEqual(namespaced.slice().sort());
    expect(granted(chart, GROUP, "create")).toEqual(
      namespaced
        .filter((k) => /(?:approvals|acknowledgments)$/u.test(k))
        .slice()
        .sort(),
    );
    const lacks = [...text.matchAll(/no `([^`]+)`/gu)].map((m) => m[1]!).concat(/no ConfigMaps/u.test(text) ? ["configmaps"] : []);
    expect(lacks.length).toBeGreaterThan(1);
    expect(lacks.filter((r) => chart.some((rule) => rule.resources.includes(r)))).toEqual([]);
  });
});
