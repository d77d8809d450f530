// One deeply nested object stored by the real kube-apiserver does not take away anyone's view: a
// PtahMigration keeps unknown fields under spec.execution.resources, so a namespace writer can store
// one nested 9,990 levels deep (kubectl's own reader stops at 10,000, so it is sent with
// `kubectl create --raw`; the API server stores it). Every list command through the real kubectl
// then prints the other objects with one warning naming it, exit 0 (plans, which reads its pin
// sources strictly, refuses in one line); -o json leaves it out with the same warning; the object
// itself, asked for by name, is one error line.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNamespace, createObject, kubectl } from "../support/lab.ts";
import { migrationManifest, ptah, schemaManifest } from "../support/plugin.ts";

const skip = process.env.PTAH_E2E_SKIP;
const DEPTH = 9_990;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-deep-e2e-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let ns = "";

function deepMigration(namespace: string, name: string): string {
  const base = migrationManifest(namespace, name) as { spec: Record<string, unknown> };
  const text = JSON.stringify({ ...base, spec: { ...base.spec, execution: { resources: "@DEEP@" } } });
  return text.replace('"@DEEP@"', `${'{"a":'.repeat(DEPTH)}{}${"}".repeat(DEPTH)}`);
}

describe.skipIf(skip)("an object nested 9,990 levels deep in the real API server", { timeout: 180_000 }, () => {
  beforeAll(() => {
    ns = createNamespace("deep");
    createObject(schemaManifest(ns, "storefront"));
    createObject(migrationManifest(ns, "billing"));
    const file = path.join(dir, "deep.json");
    fs.writeFileSync(file, deepMigration(ns, "deep"));
    // kubectl() throws on a non-zero exit: the API server stored it.
    kubectl(["create", "--raw", `/apis/operator.ptah.run/v1alpha1/namespaces/${ns}/ptahmigrations`, "-f", file]);
  });

  const warned = (stderr: string): void => {
    expect(stderr).toContain(`Warning: not shown: ptahmigration ${ns}/deep is nested deeper than 128 levels`);
    expect(stderr).not.toContain("error:");
    expect(stderr.match(/deep is nested deeper/gu)).toHaveLength(1);
  };

  it.each([[["status"]], [["inbox"]], [["ledger"]], [["approvals"]]])("%j prints the rest, exit 0, one warning naming it", (args) => {
    const r = ptah([...args, "-n", ns]);
    expect(r.status, r.stderr).toBe(0);
    warned(r.stderr);
    if (args[0] === "status") expect(r.stdout).toMatch(/storefront[\s\S]*billing|billing[\s\S]*storefront/u);
  });

  // plans reads the pin sources strictly (a misfit PtahMigration could pin a plan that --unpinned would
  // then offer for deletion): the deep object is its one error line, never a crash.
  it("plans refuses with one error line naming it, exit 1, nothing printed", () => {
    const r = ptah(["plans", "-n", ns]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`error: ptahmigration ${ns}/deep is nested deeper than 128 levels, which no object the plugin reads is\n`);
  });

  it("status -o json leaves it out with the warning and prints the others as served", () => {
    const r = ptah(["status", "-n", ns, "-o", "json"]);
    expect(r.status, r.stderr).toBe(0);
    warned(r.stderr);
    const names = (JSON.parse(r.stdout) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name).sort();
    expect(names).toEqual(["billing", "storefront"]);
  });

  it("migration deep, asked for by name, is one error line, exit 1", () => {
    const r = ptah(["migration", "deep", "-n", ns]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: [^\n]*deep[^\n]*nested deeper than 128 levels[^\n]*\n$/u);
  });
});
