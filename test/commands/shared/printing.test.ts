// kubectl get's printing flags on the list views: --sort-by, -o custom-columns
// and custom-columns-file, -L/--label-columns, --show-labels, --field-selector, and -o go-template
// refused in one line. Messages as kubectl 1.33 prints them (checked on the lab).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { expectGolden } from "../../support/golden.ts";
import { CONSUMED_AND_STALE, T0, T1, T2, anApproval, awaitingSchema, inSyncSchema } from "../../support/builders.ts";

function labelled(raw: Record<string, unknown>, labels: Record<string, string>, created: string, generation = 1): Record<string, unknown> {
  const metadata = raw.metadata as Record<string, unknown>;
  return { ...raw, metadata: { ...metadata, labels, creationTimestamp: created, generation } };
}

function cluster(): FakeReader {
  return new FakeReader([
    { kind: "PtahSchema", raw: labelled(awaitingSchema(), { app: "shop", tier: "2", "app.kubernetes.io/name": "front" }, T1, 3) },
    { kind: "PtahSchema", raw: labelled(inSyncSchema({ name: "orders", uid: "schema-uid-3" }), { app: "shop", tier: "1" }, T2, 12) },
    { kind: "PtahSchema", raw: labelled(inSyncSchema({ name: "catalog", uid: "schema-uid-2" }), {}, T0, 2) },
    { kind: "PtahSchemaApproval", raw: labelled(anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }), { team: "db" }, T1) },
    { kind: "PtahSchemaApproval", raw: labelled(anApproval({ name: "storefront-v0" }), {}, T0) },
  ]);
}

async function ok(argv: string[]): Promise<string> {
  const r = await runCliWith(argv, cluster());
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return r.stdout;
}

async function refused(argv: string[], line: string, status = 2): Promise<void> {
  const r = await runCliWith(argv, cluster());
  expect(r).toMatchObject({ status, stdout: "", stderr: `${line}\n` });
}

function names(table: string): string[] {
  return table
    .trimEnd()
    .split("\n")
    .slice(1)
    .map((l) => l.split(/\s+/u)[0]!);
}

describe("--sort-by", () => {
  it("sorts rows by a served field: objects without it first, numbers as numbers", async () => {
    expect(names(await ok(["status", "-n", "app", "--sort-by=.metadata.labels.tier"]))).toEqual(["catalog", "orders", "storefront"]);
    expect(names(await ok(["status", "-n", "app", "--sort-by", "{.metadata.generation}"]))).toEqual(["catalog", "storefront", "orders"]);
    expect(names(await ok(["status", "-n", "app", "--sort-by=metadata.creationTimestamp"]))).toEqual(["catalog", "storefront", "orders"]);
  });

  it("sorts -o name and the items of -o json", async () => {
    expect(await ok(["status", "-n", "app", "-o", "name", "--sort-by=.metadata.generation"])).toBe(
      "ptahschema.operator.ptah.run/catalog\nptahschema.operator.ptah.run/storefront\nptahschema.operator.ptah.run/orders\n",
    );
    const list = JSON.parse(await ok(["status", "-n", "app", "-o", "json", "--sort-by=.metadata.labels.tier"])) as { items: { metadata: { name: string } }[] };
    expect(list.items.map((i) => i.metadata.name)).toEqual(["catalog", "orders", "storefront"]);
  });

  it("sorts approvals", async () => {
    expect(names(await ok(["approvals", "-n", "app", "--sort-by=.metadata.labels.team"]))).toEqual(["storefront-v0", "storefront-v1"]);
    expect(names(await ok(["approvals", "-n", "app", "--sort-by=.metadata.creationTimestamp"]))).toEqual(["storefront-v0", "storefront-v1"]);
  });

  it("refuses a field no object has, and an object-valued field, in one line", async () => {
    await refused(
      ["status", "-n", "app", "--sort-by=.nope"],
      `error: couldn't find any field with path "{.nope}" in the list of objects (see 'kubectl ptah status -h' for help and examples)`,
    );
    await refused(
      ["status", "-n", "app", "--sort-by=.metadata"],
      "error: --sort-by: the field {.metadata} is an object, which cannot be sorted by (see 'kubectl ptah status -h' for help and examples)",
    );
    await refused(
      ["status", "-n", "app", "--sort-by={.metadata.name"],
      "error: error parsing jsonpath {.metadata.name: unclosed action (see 'kubectl ptah status -h' for help and examples)",
    );
  });
});

describe("-L/--label-columns and --show-labels", () => {
  it("adds one column per key (last path segment, upper-cased), then LABELS, after every other column", async () => {
    const out = await ok(["status", "-n", "app", "-L", "tier,app.kubernetes.io/name", "-L", "app", "--show-labels"]);
    expect(out.split("\n")[0]).toMatch(/AGE +TIER +NAME +APP +LABELS$/u);
    await expectGolden(out, "printing/status-labels.txt");
    const wide = await ok(["status", "-n", "app", "-o", "wide", "--show-labels"]);
    expect(wide.split("\n")[0]).toMatch(/LAST APPLIED +STUCK +LABELS$/u);
    expect(wide).toContain("app.kubernetes.io/name=front,app=shop,tier=2");
    expect(wide).toMatch(/catalog .* <none>\n/u);
  });

  it("works on approvals", async () => {
    await expectGolden(await ok(["approvals", "-n", "app", "-L", "team", "--show-labels"]), "printing/approvals-labels.txt");
  });

  it("--show-labels with a template printer is refused as kubectl refuses it", async () => {
    await refused(
      ["status", "-n", "app", "-o", "jsonpath={.items[*].metadata.name}", "--show-labels"],
      "error: --show-labels option cannot be used with jsonpath={.items[*].metadata.name} printer (see 'kubectl ptah status -h' for help and examples)",
    );
    await refused(
      ["status", "-n", "app", "-o", "custom-columns=N:.metadata.name", "--show-labels"],
      "error: --show-labels option cannot be used with custom-columns=N:.metadata.name printer (see 'kubectl ptah status -h' for help and examples)",
    );
  });
});

describe("-o custom-columns and custom-columns-file", () => {
  const SPEC = "custom-columns=NAME:.metadata.name,PHASE:status.phase,REF:{.spec.desired},LABELS:.metadata.labels.*,NOPE:.status.nope";

  it("prints the columns over the served objects: <none> when absent, Go's map[…] for objects, several values comma-joined", async () => {
    const out = await ok(["status", "-n", "app", "-o", SPEC, "--sort-by=.metadata.name"]);
    await expectGolden(out, "printing/status-custom-columns.txt");
    expect(out).toContain("map[ociRef:oci://registry.example/schemas/demo:v1]");
    expect(out).toContain("   <none>\n");
    expect(await ok(["status", "-n", "app", "-o", "custom-columns=N:.metadata.name", "--no-headers", "--sort-by=.metadata.name"])).toBe("catalog\norders\nstorefront\n");
    expect(await ok(["approvals", "-n", "app", "-o", "custom-columns=NAME:.metadata.name,PLAN:.spec.planRef.name", "--sort-by=.metadata.name"])).toMatch(
      /^NAME +PLAN\nstorefront-v0 +ptah-plan-/u,
    );
  });

  it("reads the file form: one line of headers, one line of paths", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-cc-"));
    const file = path.join(dir, "columns.txt");
    fs.writeFileSync(file, "NAME   PHASE\n.metadata.name .status.phase\n");
    expect(await ok(["status", "-n", "app", `-o=custom-columns-file=${file}`, "--sort-by=.metadata.name"])).toBe(
      await ok(["status", "-n", "app", "-o", "custom-columns=NAME:.metadata.name,PHASE:.status.phase", "--sort-by=.metadata.name"]),
    );
    fs.writeFileSync(file, "NAME\n");
    await refused(
      ["status", "-n", "app", "-o", `custom-columns-file=${file}`],
      "error: invalid template, missing spec line. Expected format is one line of space separated headers, one line of space separated column specs. (see 'kubectl ptah status -h' for help and examples)",
    );
    const missing = path.join(dir, "nope.txt");
    await refused(
      ["status", "-n", "app", "-o", `custom-columns-file=${missing}`],
      `error: error reading template ${missing}, open ${missing}: no such file or directory (see 'kubectl ptah status -h' for help and examples)`,
    );
    fs.rmSync(dir, { recursive: true });
  });

  it("refuses a malformed spec with kubectl's message", async () => {
    await refused(["status", "-o", "custom-columns="], "error: custom-columns format specified but no custom columns given (see 'kubectl ptah status -h' for help and examples)");
    await refused(
      ["approvals", "-o", "custom-columns=NAME"],
      "error: unexpected custom-columns spec: NAME, expected <header>:<json-path-expr> (see 'kubectl ptah approvals -h' for help and examples)",
    );
  });
});

describe("--field-selector and -o go-template", () => {
  it("--field-selector goes to the server with the list", async () => {
    expect(names(await ok(["status", "-n", "app", "--field-selector", "metadata.name=orders"]))).toEqual(["orders"]);
    expect(names(await ok(["approvals", "-n", "app", "--field-selector=metadata.name=storefront-v1"]))).toEqual(["storefront-v1"]);
    await refused(
      ["status", "storefront", "--field-selector=metadata.name=x"],
      "error: a schema name cannot be combined with --field-selector (see 'kubectl ptah status -h' for help and examples)",
    );
  });

  it("-o go-template is refused in the one line that lists the formats, jsonpath among them", async () => {
    for (const o of ["go-template={{.kind}}", "go-template-file=t.tmpl", "template={{.kind}}"]) {
      const r = await runCliWith(["status", "-o", o], cluster());
      expect(r.status).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        `error: unknown output format "${o}"; it is one of [wide json yaml name jsonpath=TEMPLATE custom-columns=SPEC custom-columns-file=FILE] (see 'kubectl ptah status -h' for help and examples)\n`,
      );
    }
  });
});
