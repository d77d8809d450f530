// `kubectl ptah diff` through the real shell (runCliWith: argv strings, fixed clock, no colour,
// width 120) over plans published the operator's way.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { expectGolden } from "../../support/golden.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { fakeObjectsOf } from "../../support/publish-plan.ts";
import { approvalOf, clusterState, CONSUMED_THEN_STALE, CURRENT_STATEMENTS, NS, publishApplied, publishCurrent, SCHEMA, STALE } from "../../plan/fixtures.ts";

/** An earlier plan a person approved; it went stale when spec.policy changed, before it ran. */
const earlier = publishCurrent({
  statements: [CURRENT_STATEMENTS[0]!, CURRENT_STATEMENTS[3]!],
  privilegeChanges: ["Grant"],
  createdAt: "2026-09-14T09:00:00Z",
  binding: { actualStateFingerprint: "sha256:" + "a1".repeat(32), desiredStateFingerprint: "sha256:" + "b2".repeat(32), policyFingerprint: "sha256:" + "5e".repeat(32) },
});

function story(extra: ReturnType<typeof approvalOf>[] = []) {
  const s = clusterState({ extra: [...fakeObjectsOf(earlier), ...extra] });
  return { ...s, run: (argv: string[], tty = false) => runCliWith(["diff", SCHEMA, "-n", NS, ...argv], s.reader, { tty }) };
}

const usedV1 = () => approvalOf(story().applied, { name: "storefront-v1", conditions: CONSUMED_THEN_STALE, created: "2026-09-13T08:04:10Z" });
const staleV2 = () => approvalOf(earlier, { name: "storefront-v2", conditions: STALE, created: "2026-09-14T09:05:00Z" });

describe("diff", () => {
  it("compares, by default, the plan of the newest stale or consumed approval with the current plan", async () => {
    const r = await story([usedV1(), staleV2()]).run([]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("approval storefront-v2 (stale) is the newest approval of this schema that is stale or consumed");
    await expectGolden(r.stdout, "diff/default.txt");
  });

  it("compares the plan one approval names, with statements of context", async () => {
    const r = await story([usedV1(), staleV2()]).run(["--from", "approval", "storefront-v1"]);
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "diff/from-approval.txt");
  });

  it("falls back to the applied plan when no approval is stale or consumed, and says so", async () => {
    const r = await story([approvalOf(earlier, { name: "pending" })]).run([]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("no approval of this schema is stale or consumed, so the applied plan");
    expect(r.stdout).toContain("From:           the applied plan\n");
  });

  it("prints only the counts with --stat", async () => {
    const r = await story([staleV2()]).run(["--stat"]);
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "diff/stat.txt");
  });

  it("prints both identities, the binding changes and the statement operations with -o json", async () => {
    const r = await story([staleV2()]).run(["-o", "json"]);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.statements).toMatchObject({ compared: true, added: 2, removed: 0, unchanged: 2 });
    await expectGolden(r.stdout, "diff/default.json");
  });

  it("prints the to plan's SQL with -- added and -- removed comments with -o sql", async () => {
    const r = await story().run(["--from", "applied", "-o", "sql"]);
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "diff/from-applied.sql");
    const executable =
      r.stdout
        .split("\n")
        .filter((l) => l !== "" && !l.startsWith("-- "))
        .join("\n") + "\n";
    const plan = await runCliWith(["plan", SCHEMA, "-n", NS, "-o", "sql"], story().reader);
    expect(executable).toBe(plan.stdout);
  });

  it("reads the schema, the approvals, then each plan and its chunks — nothing else", async () => {
    const s = story([staleV2()]);
    await s.run([]);
    expect(s.reader.requests).toEqual([
      `get PtahSchema ${NS}/${SCHEMA}`,
      `list PtahSchemaApproval ${NS}`,
      `get PtahSchemaPlan ${NS}/${earlier.name}`,
      `get PtahSchemaPlanChunk ${NS}/${earlier.name}-000`,
      `get PtahSchemaPlan ${NS}/${s.current.name}`,
      `get PtahSchemaPlanChunk ${NS}/${s.current.name}-000`,
    ]);
  });

  it("accepts --from=approval/NAME, --to plan NAME and flags before the name", async () => {
    const s = story([staleV2()]);
    const a = await runCliWith(["diff", "--from=approval/storefront-v2", "-n", NS, SCHEMA, "--to", "plan", s.current.name], s.reader);
    const b = await s.run(["--from", "approval", "storefront-v2"]);
    expect(a.stderr).toBe("");
    expect(a.stdout).toBe(b.stdout.replace("To:             the current plan", `To:             plan ${s.current.name}`));
  });

  it.each([
    { name: "the plans differ", argv: ["--exit-code"], status: 4 },
    { name: "the plans are the same plan", argv: ["--exit-code", "--from", "plan", "$current"], status: 0 },
    { name: "the plans differ but --exit-code is not given", argv: [], status: 0 },
  ])("exits $status when $name", async ({ argv, status }) => {
    const s = story([staleV2()]);
    const r = await s.run(argv.map((a) => (a === "$current" ? s.current.name : a)));
    expect(r.stderr).toBe("");
    expect(r.stdout).not.toBe("");
    expect(r.status).toBe(status);
  });
});

describe("diff when the from plan is gone", () => {
  function goneState(copies?: Record<string, unknown>) {
    const gone = publishCurrent({ statements: [CURRENT_STATEMENTS[0]!], createdAt: "2026-09-14T08:00:00Z", binding: { policyFingerprint: "sha256:" + "77".repeat(32) } });
    const s = clusterState({ extra: [approvalOf(gone, { name: "storefront-old", conditions: STALE, ...(copies ? { copies } : {}) })] });
    return { s, gone };
  }

  it("compares the fingerprint the approval recorded, says what could not be compared, and exits 0", async () => {
    const { s } = goneState();
    const r = await runCliWith(["diff", SCHEMA, "-n", NS, "--from", "approval", "storefront-old"], s.reader);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Statements: not compared: the from plan is gone");
    await expectGolden(r.stdout, "diff/gone.txt");
  });

  it("compares the binding copies an older approval carries", async () => {
    const { gone } = goneState();
    const spec = gone.plan.spec as Record<string, unknown>;
    const copies = Object.fromEntries(
      [
        "artifactDigest",
        "coordinationDigest",
        "targetIdentityDigest",
        "actualStateFingerprint",
        "desiredStateFingerprint",
        "policyFingerprint",
        "verificationPolicyUID",
        "verificationPolicyDigest",
        "executionBindingID",
        "controllerStateVersion",
        "ptahVersion",
        "executorImage",
        "runnerProtocolVersion",
      ].map((k) => [k, spec[k]]),
    );
    const { s } = goneState(copies);
    const r = await runCliWith(["diff", SCHEMA, "-n", NS, "--from", "approval", "storefront-old"], s.reader);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("policy fingerprint");
    await expectGolden(r.stdout, "diff/gone-copies.txt");
    const json = await runCliWith(["diff", SCHEMA, "-n", NS, "--from", "approval", "storefront-old", "-o", "json"], s.reader);
    await expectGolden(json.stdout, "diff/gone-copies.json");
    const stat = await runCliWith(["diff", SCHEMA, "-n", NS, "--from", "approval", "storefront-old", "--stat"], s.reader);
    expect(stat.stdout).toContain("statements:  not compared (the from plan is gone)");
  });
});

describe("diff when the applied plan is gone", () => {
  it("compares what the applied record kept (fingerprint, artifact digest, Ptah version)", async () => {
    const s = clusterState();
    s.reader.remove("PtahSchemaPlan", NS, s.applied.name);
    const r = await runCliWith(["diff", SCHEMA, "-n", NS, "--from", "applied"], s.reader);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("From:           the applied plan (gone)\n");
    expect(r.stdout).toContain("Bindings, as the applied record recorded them: 0 of 2 fingerprint inputs differ, 2 unchanged; 16 not recorded\n");
    expect(r.stdout).toContain("Statements: not compared: the from plan is gone");
  });
});

describe("diff refuses", () => {
  it.each([
    { name: "no name", argv: ["diff"], message: "name one PtahSchema" },
    { name: "two names", argv: ["diff", "a", "b"], message: "name one PtahSchema" },
    { name: "--from approval without a name", argv: ["diff", "a", "--from", "approval"], message: "--from approval needs the name of the PtahSchemaApproval" },
    { name: "an unknown --from", argv: ["diff", "a", "--from", "yesterday"], message: '--from is applied, approval NAME or plan NAME, not "yesterday"' },
    { name: "--to applied", argv: ["diff", "a", "--to", "applied"], message: '--to is current or plan NAME, not "applied"' },
    { name: "an unknown format", argv: ["diff", "a", "-o", "yaml"], message: 'unknown output format "yaml"; it is one of [text json sql markdown]' },
    { name: "--stat with -o json", argv: ["diff", "a", "--stat", "-o", "json"], message: "--stat belongs to the text view" },
  ])("$name as a usage error (exit 2, empty stdout)", async ({ argv, message }) => {
    const r = await runCliWith(argv, new FakeReader([]));
    expect(r).toMatchObject({ stdout: "", status: 2 });
    expect(r.stderr).toContain(message);
  });

  it("an approval that binds another schema, naming the side", async () => {
    const s = clusterState({ extra: [approvalOf(publishApplied(), { name: "elsewhere", schemaUID: "another-uid" })] });
    const r = await runCliWith(["diff", SCHEMA, "-n", NS, "--from", "approval", "elsewhere"], s.reader);
    expect(r).toMatchObject({ stdout: "", status: 1 });
    expect(r.stderr).toContain('error: the from plan (approval elsewhere) failed the check "selection": the approval binds storefront (UID another-uid)');
  });

  it.each([
    {
      name: "no current plan",
      state: () => clusterState({ current: null }),
      argv: ["--from", "applied"],
      status: 3,
      message: 'the to plan (current) failed the check "selection": no such plan',
    },
    {
      name: "no such approval",
      state: () => clusterState(),
      argv: ["--from", "approval", "nope"],
      status: 3,
      message: "the from plan (approval nope) could not be read: no such approval: application/nope",
    },
    {
      name: "nothing applied",
      state: () => clusterState({ applied: null }),
      argv: ["--from", "applied"],
      status: 3,
      message: 'the from plan (applied) failed the check "selection": no such plan',
    },
    { name: "no such schema", state: () => new FakeReader([]) as never, argv: [], status: 3, message: "no such schema: application/storefront" },
  ])("$name (exit $status)", async ({ state, argv, status, message }) => {
    const st = state() as ReturnType<typeof clusterState> | FakeReader;
    const reader = st instanceof FakeReader ? st : st.reader;
    const r = await runCliWith(["diff", SCHEMA, "-n", NS, ...argv], reader);
    expect(r).toMatchObject({ stdout: "", status });
    expect(r.stderr).toContain(message);
  });
});

describe("diff on a terminal", () => {
  it("colours the changed statements and cuts a long single-line statement to the width, keeping its severity", async () => {
    const long = { sql: `INSERT INTO "settings" ("key", "value") VALUES ('banner', '${"x".repeat(300)}');`, severity: "info", reason: "reference row" };
    const to = publishCurrent({ statements: [...CURRENT_STATEMENTS, long] });
    const s = clusterState({ current: to });
    const r = await runCliWith(["diff", SCHEMA, "-n", NS, "--from", "applied", "--color", "always"], s.reader, { tty: true, env: {} });
    expect(r.status).toBe(0);
    const line = r.stdout.split("\n").find((l) => l.includes("'banner'"))!;
    const plain = line.replace(/\u001b\[[0-9;]*m/gu, "");
    expect(plain.length).toBe(120);
    expect(plain).toMatch(/^\+INSERT INTO "settings".*x… {2}\(info: reference row\)$/u);
    expect(line).toContain("\u001b[32m+INSERT");
    const piped = await runCliWith(["diff", SCHEMA, "-n", NS, "--from", "applied"], s.reader);
    expect(piped.stdout).toContain("x".repeat(300));
    expect(piped.stdout).not.toContain("\u001b[");
  });
});
