// `endorse`: the plan verified as `approve` verifies it, then one conflict-safe kubectl line (or a
// merge patch) that appends you to the current plan's endorsement annotation; never a write.
import { describe, expect, it } from "vitest";
import { endorsementKey } from "../../../src/approval/endorsement.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { awaitingSchema, T1 } from "../../support/builders.ts";
import { currentPlanStatus, fakeObjectsOf, publishSchemaPlan } from "../../support/publish-plan.ts";
import { expectGolden } from "../../support/golden.ts";

type Raw = Record<string, unknown>;
const SCHEMA = { name: "storefront", namespace: "app", uid: "schema-uid-1" };
const plan1 = publishSchemaPlan({
  schema: SCHEMA,
  statements: [{ sql: 'ALTER TABLE "customers" DROP COLUMN "email"', severity: "destructive", reason: "columns_removed" }],
  createdAt: T1,
});
const KEY = endorsementKey(plan1.fingerprint);

function cluster(annotations: Record<string, string>, me = "alice", tamper = false): FakeReader {
  const schema = awaitingSchema({ plan: currentPlanStatus(plan1) }) as { metadata: Raw };
  schema.metadata.annotations = { "operator.ptah.run/last-spec-writer-username": "writer", ...annotations };
  schema.metadata.resourceVersion = "4242";
  const pieces = fakeObjectsOf(plan1).map((o) =>
    tamper && o.kind === "PtahSchemaPlanChunk" ? { ...o, raw: { ...(o.raw as Raw), spec: { data: Buffer.from("DROP TABLE customers;").toString("base64") } } } : o,
  );
  const reader = new FakeReader([{ kind: "PtahSchema", raw: schema as Raw }, ...pieces]);
  reader.identity = { username: me, uid: "", groups: ["system:authenticated", "dba"] };
  return reader;
}

describe("endorse", () => {
  it("prints one kubectl annotate line with the resourceVersion it read, and sends nothing but reads and who-am-I", async () => {
    const reader = cluster({});
    const r = await runCliWith(["endorse", "storefront", "-n", "app"], reader);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    expect(r.stdout).toBe(`kubectl annotate ptahschemas.operator.ptah.run/storefront -n app ${KEY}=alice --resource-version=4242\n`);
    await expectGolden(r.stdout, "endorse/line.txt");
    expect(reader.requests.filter((q) => !q.startsWith("get ") && !q.startsWith("list "))).toEqual(["create SelfSubjectReview"]);
  });

  it("appends to the endorsers there, with --overwrite, and carries --kubeconfig and --context, quoted for a shell", async () => {
    const r = await runCliWith(["endorse", "storefront", "-n", "app", "--kubeconfig", "/home/o'neil/kube config", "--context", "prod"], cluster({ [KEY]: "bob" }));
    expect(r.stdout).toBe(
      `kubectl --kubeconfig '/home/o'"'"'neil/kube config' --context prod annotate ptahschemas.operator.ptah.run/storefront -n app ${KEY}=bob,alice --resource-version=4242 --overwrite\n`,
    );
  });

  it("prints a merge patch with -o json and -o yaml", async () => {
    const r = await runCliWith(["endorse", "storefront", "-n", "app", "-o", "json"], cluster({ [KEY]: "bob" }));
    expect(JSON.parse(r.stdout)).toEqual({ metadata: { resourceVersion: "4242", annotations: { [KEY]: "bob,alice" } } });
    const y = await runCliWith(["endorse", "storefront", "-n", "app", "-o", "yaml"], cluster({}));
    expect(y.stdout).toBe(`metadata:\n  annotations:\n    ${KEY}: alice\n  resourceVersion: '4242'\n`);
  });

  it("refuses the last spec writer and a second endorsement, one line each, stdout empty", async () => {
    const self = await runCliWith(["endorse", "storefront", "-n", "app"], cluster({}, "writer"));
    expect(self).toMatchObject({ status: 1, stdout: "" });
    expect(self.stderr).toBe(
      "error: cannot endorse app/storefront: you (writer) last changed its spec, and the plan's last spec writer never endorses it (four eyes); next: ask another endorser to run kubectl ptah endorse storefront -n app\n",
    );
    const twice = await runCliWith(["endorse", "storefront", "-n", "app"], cluster({ [KEY]: "bob,alice" }));
    expect(twice).toMatchObject({ status: 1, stdout: "" });
    expect(twice.stderr).toBe(`error: cannot endorse app/storefront: you (alice) already endorsed its current plan (${KEY}); next: kubectl ptah status storefront -n app\n`);
  });

  it("refuses as approve refuses: a plan whose stored chunks do not verify is never endorsed", async () => {
    const r = await runCliWith(["endorse", "storefront", "-n", "app"], cluster({}, "alice", true));
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toMatch(/^error: .*\n$/u);
  });
});
