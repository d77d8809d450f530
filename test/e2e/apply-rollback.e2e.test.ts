// An approved plan that PostgreSQL refuses half-way leaves nothing of itself in the database: the
// simulator runs the plan in one transaction. Through the Kubernetes API and the real kubectl:
// storefront converges on demo v1, its database then refuses drops (an event trigger, which is not
// part of the managed scope, so the plan stays current), v3's plan (ADD COLUMN signed_up_at, then
// DROP COLUMN email) is approved, its second statement fails, the schema is Failed
// (OperationFailed) and the catalog still reads as v1: the first statement was rolled back too.
import { beforeAll, describe, expect, it } from "vitest";
import { resolveSchema } from "../sim/catalog.ts";
import { Databases, databaseName } from "../sim/database.ts";
import { connectionFromEnv, psql } from "../sim/psql.ts";
import { createScenarioNamespace } from "../scenarios/process.ts";
import { getObject, kubectl, labEnv, type KubeObject } from "../support/lab.ts";
import { ptah } from "../support/plugin.ts";
import { storefrontSetup } from "./storefront-setup.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let ns = "";
const conn = () => connectionFromEnv({ PTAH_LAB_POSTGRES: `${labEnv().labDir}/postgres.json` });

async function waitFor(what: string, test: (s: KubeObject) => boolean, timeoutMs = 90_000): Promise<KubeObject> {
  const deadline = Date.now() + timeoutMs;
  let last: KubeObject | undefined;
  while (Date.now() < deadline) {
    last = getObject("ptahschema", "storefront", ns);
    if (last && test(last)) return last;
    await sleep(250);
  }
  throw new Error(`storefront never got ${what}; last status: ${JSON.stringify(last?.status)}`);
}

const ready = (s: KubeObject) => (s.status as { conditions?: Array<{ type: string; reason: string }> } | undefined)?.conditions?.find((c) => c.type === "Ready");

beforeAll(() => {
  ns = createScenarioNamespace("apply-rollback");
  const manifests = storefrontSetup({ apply: "Always" });
  kubectl(["apply", "-f", "-"], { namespace: ns, input: manifests });
});

describe("an approved plan PostgreSQL refuses half-way", () => {
  it("fails the Apply and leaves the database as it was", async () => {
    await waitFor("phase InSync at demo v1", (s) => s.status?.phase === "InSync");
    const db = databaseName(ns, "storefront");
    await psql(
      conn(),
      db,
      `CREATE FUNCTION public.refuse_drops() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'this database refuses drops'; END $$;
CREATE EVENT TRIGGER refuse_drops ON sql_drop EXECUTE FUNCTION public.refuse_drops();`,
    );
    kubectl(
      [
        "patch",
        "ptahschema",
        "storefront",
        "--type=merge",
        "-p",
        JSON.stringify({ spec: { desired: { ociRef: "oci://registry.lab/schemas/demo:v3" }, policy: { apply: "Always", allowDestructive: true } } }),
      ],
      { namespace: ns },
    );
    await waitFor("a plan waiting for approval", (s) => s.status?.phase === "AwaitingApproval" && s.status?.observedGeneration === s.metadata.generation);

    const sql = ptah(["plan", "storefront", "-n", ns, "-o", "sql"], "approver");
    expect(sql.stdout.trim().split("\n")).toEqual(['ALTER TABLE "customers" ADD COLUMN "signed_up_at" timestamp with time zone;', 'ALTER TABLE "customers" DROP COLUMN "email";']);
    const approval = ptah(["approve", "storefront", "-n", ns, "--name", "storefront-v3"], "approver");
    expect(approval.status, approval.stderr).toBe(0);
    kubectl(["create", "-f", "-"], { namespace: ns, as: "approver", input: approval.stdout });

    const failed = await waitFor("phase Failed", (s) => s.status?.phase === "Failed");
    expect(ready(failed)?.reason).toBe("OperationFailed");
    expect(JSON.stringify(ready(failed))).toContain("this database refuses drops");

    const v1 = resolveSchema("oci://registry.lab/schemas/demo:v1");
    if ("error" in v1) throw new Error(v1.error);
    expect(await new Databases(conn()).readModel(ns, "storefront")).toEqual({ schemas: [], ...v1.model });
    const described = await psql(conn(), db, "\\d customers\n");
    expect(described).not.toContain("signed_up_at");
    expect(described).toContain("email");
  });
});
