// -o jsonpath= runs jsonpath-plus in its safe mode (src/render/jsonpath.ts): a template is data
// from the command line, and jsonpath-plus's other evaluator runs script filters as JavaScript.
// Templates that would run code there go through the real CLI over fixtures; each must be refused
// or answer inertly, and the sentinel each would set on the global object must stay unset.
import { afterEach, describe, expect, it } from "vitest";
import { awaitingSchema, inSyncSchema } from "../support/builders.ts";
import { runCliWith } from "../support/cli.ts";
import { FakeReader } from "../support/fake-reader.ts";

const SENTINEL = "__ptahJsonpathRan";
const RUN = `globalThis.${SENTINEL}=1`;
const sentinel = (): unknown => (globalThis as Record<string, unknown>)[SENTINEL];

const cluster = (): FakeReader =>
  new FakeReader([
    { kind: "PtahSchema", raw: awaitingSchema() },
    { kind: "PtahSchema", raw: inSyncSchema({ name: "orders", uid: "schema-uid-3" }) },
  ]);

/** Script filters and expressions that run code in jsonpath-plus's native evaluator. */
const TEMPLATES = [
  `{.items[?(@.constructor.constructor('${RUN}')())]}`,
  `{$..[?(@.constructor.constructor('${RUN}')())]}`,
  `{.items[?(@.metadata.name.constructor.constructor('${RUN}')())]}`,
  `{.items[?(@.__proto__.constructor.constructor('${RUN}')())]}`,
  `{.items[?((function(){${RUN}})())]}`,
  `{.items[?(this.constructor.constructor('${RUN}')())]}`,
  `{.items[?(@property === 0 && (${RUN}))]}`,
  `{.items[(@.constructor.constructor('${RUN}')())]}`,
  `{.items[?(@.constructor.constructor('return process')().mainModule)]}`,
  `{.items[?(Function('${RUN}')())]}`,
];

describe("-o jsonpath stays in jsonpath-plus's safe mode", () => {
  afterEach(() => {
    delete (globalThis as Record<string, unknown>)[SENTINEL];
  });

  it.each(TEMPLATES)("%s is refused or inert, and runs nothing", async (template) => {
    const r = await runCliWith(["status", "-n", "app", "-o", `jsonpath=${template}`], cluster());
    expect(sentinel(), `${template} ran code`).toBeUndefined();
    // A refusal is the usage error's exit 2 with jsonpath's own words; an inert answer prints no object.
    if (r.status !== 0) expect(r).toMatchObject({ status: 2, stdout: "" });
    if (r.status !== 0) expect(r.stderr).toMatch(/^error: (error executing|error parsing) jsonpath /u);
    else expect(r.stdout).not.toContain("storefront");
  });

  it("an ordinary filter still works in safe mode", async () => {
    const r = await runCliWith(["status", "-n", "app", "-o", `jsonpath={.items[?(@.metadata.name=="orders")].metadata.name}`], cluster());
    expect(r).toMatchObject({ status: 0, stdout: "orders" });
  });
});
