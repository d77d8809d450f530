// The rough edges, each pinned. (Ctrl-C's exit status is in interrupt.test.ts:
// it needs a real process.)
import { describe, expect, it } from "vitest";
import { ReadError } from "../../src/errors.ts";
import { FakeReader } from "../support/fake-reader.ts";
import { runCliWith } from "../support/cli.ts";
import { expectGolden } from "../support/golden.ts";
import { awaitingSchema, blockedSchema, inSyncSchema } from "../support/builders.ts";
import { NS, SCHEMA, clusterState, publishCurrent } from "../plan/fixtures.ts";

function aborted(): AbortSignal {
  const c = new AbortController();
  c.abort();
  return c.signal;
}

describe("explain WORD against a broken cluster", () => {
  it("reports the cluster's error (with the topic lookup's answer), not just 'no topic'", async () => {
    const reader = new FakeReader([]);
    reader.faults.set("get PtahSchema", new ReadError("the server 127.0.0.1:6443 did not answer within 30s (--request-timeout)"));
    const r = await runCliWith(["explain", "storefront"], reader);
    expect(r).toMatchObject({
      status: 1,
      stdout: "",
      stderr: `error: the server 127.0.0.1:6443 did not answer within 30s (--request-timeout); and no topic "storefront"; run 'kubectl ptah explain' to list topics\n`,
    });
  });

  it("without a cluster at all the word is still a topic lookup (exit 3)", async () => {
    const r = await runCliWith(["explain", "stael"], undefined);
    expect(r.status).toBe(3);
    expect(r.stderr).toBe('error: no topic "stael"; did you mean Stale?\n');
  });
});

describe("suggestions use the vocabulary the user typed", () => {
  it("explain PlanNoLongerCurent suggests PlanNoLongerCurrent, not a slug", async () => {
    const r = await runCliWith(["explain", "PlanNoLongerCurent"], undefined);
    expect(r).toMatchObject({ status: 3, stdout: "", stderr: 'error: no topic "PlanNoLongerCurent"; did you mean PlanNoLongerCurrent?\n' });
    const again = await runCliWith(["explain", "PlanNoLongerCurrent"], undefined);
    expect(again.status).toBe(0);
  });
});

describe("status -w honours -o as kubectl get -w -o does", () => {
  const cluster = (): FakeReader =>
    new FakeReader([
      { kind: "PtahSchema", raw: awaitingSchema() },
      { kind: "PtahSchema", raw: inSyncSchema({ name: "orders", uid: "schema-uid-3" }) },
    ]);

  it("-o yaml: one YAML document per change, --- between them", async () => {
    const r = await runCliWith(["status", "-n", "app", "-w", "-o", "yaml"], cluster(), { signal: aborted() });
    expect(r.status).toBe(0);
    const docs = r.emitted.split("---\n");
    expect(docs).toHaveLength(2);
    expect(docs[0]).toMatch(/^apiVersion: operator\.ptah\.run\/v1alpha1\nkind: PtahSchema\n/u);
    expect(docs[0]).toContain("  name: storefront\n");
    expect(docs[1]).toContain("  name: orders\n");
  });

  it("-o name: one name per change; -o jsonpath: the template per change", async () => {
    const names = await runCliWith(["status", "-n", "app", "-w", "-o", "name"], cluster(), { signal: aborted() });
    expect(names.emitted).toBe("ptahschema.operator.ptah.run/storefront\nptahschema.operator.ptah.run/orders\n");
    const template = await runCliWith(["status", "-n", "app", "-w", "-o", 'jsonpath={.metadata.name}={.status.phase}{"\\n"}'], cluster(), { signal: aborted() });
    expect(template.emitted).toBe("storefront=AwaitingApproval\norders=InSync\n");
  });

  it("-o custom-columns with --watch is refused with exit 2", async () => {
    const r = await runCliWith(["status", "-w", "-o", "custom-columns=N:.metadata.name"], cluster());
    expect(r).toMatchObject({ status: 2, stdout: "" });
    expect(r.stderr).toBe(
      "error: --watch cannot be combined with -o custom-columns; use -o name, -o yaml or -o jsonpath=TEMPLATE (see 'kubectl ptah status -h' for help and examples)\n",
    );
  });

  it("history -w -o yaml is refused with exit 2 (history prints text or JSON)", async () => {
    const r = await runCliWith(["history", "storefront", "-w", "-o", "yaml"], cluster());
    expect(r.status).toBe(2);
  });
});

describe("plan --statements on a terminal", () => {
  it("cuts a long first line to the terminal's width with …; piped output keeps it whole", async () => {
    const long = `INSERT INTO "t" VALUES ${"(1, 'x'), ".repeat(5000)}(2, 'y')`;
    const state = clusterState({ current: publishCurrent({ statements: [{ sql: long, severity: "safe", reason: "data" }], privilegeChanges: [] }) });
    const tty = await runCliWith(["plan", SCHEMA, "-n", NS, "--statements"], state.reader, { tty: true });
    expect(tty.status, tty.stderr).toBe(0);
    const row = tty.stdout.split("\n").find((l) => l.startsWith("1 "))!;
    expect(row.endsWith("…")).toBe(true);
    expect([...row].length).toBe(120);
    const piped = await runCliWith(["plan", SCHEMA, "-n", NS, "--statements"], state.reader);
    expect(
      piped.stdout
        .split("\n")
        .find((l) => l.startsWith("1 "))!
        .endsWith("(2, 'y')"),
    ).toBe(true);
  });
});

describe("a blocked schema's APPROVAL column", () => {
  it("says why it cannot be approved", async () => {
    const r = await runCliWith(["status", "-n", "app"], new FakeReader([{ kind: "PtahSchema", raw: blockedSchema() }]));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\ncatalog +Blocked .* blocked: destructive +60m\n/u);
    await expectGolden(r.stdout, "rough-edges/status-blocked.txt");
  });
});

describe("wait --timeout=0", () => {
  it("checks once, as kubectl wait does: exit 0 when it holds now, 1 at once when not", async () => {
    const reader = new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema() }]);
    const now = await runCliWith(["wait", "storefront", "-n", "app", "--for=phase=AwaitingApproval", "--timeout=0"], reader);
    expect(now).toMatchObject({ status: 0, stdout: "ptahschema.operator.ptah.run/storefront phase AwaitingApproval met\n" });
    const never = await runCliWith(["wait", "storefront", "-n", "app", "--for=phase=InSync", "--timeout=0"], reader);
    expect(never.status).toBe(1);
    expect(never.stderr).toMatch(/^error: timed out waiting for phase InSync on ptahschema\.operator\.ptah\.run\/storefront; last seen: phase AwaitingApproval/u);
  });
});
