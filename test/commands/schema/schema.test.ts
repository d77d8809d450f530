// `kubectl ptah schema <name>`: upstream's one-schema view, text and JSON, its usage errors, and
// that it reads the PtahSchema alone.
import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { awaitingSchema, inSyncSchema } from "../../support/builders.ts";
import { expectGolden } from "../../support/golden.ts";

function cluster(): FakeReader {
  return new FakeReader([
    { kind: "PtahSchema", raw: awaitingSchema() },
    { kind: "PtahSchema", raw: inSyncSchema({ name: "orders", uid: "schema-uid-3", namespace: "shop" }) },
  ]);
}

describe("schema <name> (upstream's view)", () => {
  it("prints the 18-column text view", async () => {
    const r = await runCliWith(["schema", "storefront", "-n", "app"], cluster());
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Schema:           app/storefront\n");
    await expectGolden(r.stdout, "schema/awaiting.txt");
  });

  it("prints the JSON view", async () => {
    const r = await runCliWith(["schema", "orders", "-n", "shop", "-o", "json"], cluster());
    await expectGolden(r.stdout, "schema/in-sync.json");
  });

  it.each([
    { name: "no name", argv: ["schema"], message: "name one PtahSchema" },
    { name: "two names", argv: ["schema", "a", "b"], message: "name one PtahSchema" },
    { name: "a plan format, with the generic message", argv: ["schema", "a", "-o", "sql"], message: `unknown output format "sql"; it is one of [text json]` },
    { name: "yaml", argv: ["schema", "a", "-o", "yaml"], message: 'unknown output format "yaml"' },
  ])("refuses $name with exit 2 and an empty stdout", async ({ argv, message }) => {
    const r = await runCliWith(argv, cluster());
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(message);
    expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
  });

  it("reads only the PtahSchema", async () => {
    const reader = cluster();
    await runCliWith(["schema", "storefront", "-n", "app"], reader);
    expect(reader.requests).toEqual(["get PtahSchema app/storefront"]);
  });
});
