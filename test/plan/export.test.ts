// `plan SCHEMA --plan NAME` (any retained plan, every check), `--export FILE` (one self-contained
// file) and `plan --verify -f FILE` (offline, byte for byte): through the real shell, with the
// real file system in a temporary folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { endorsementKey } from "../../src/approval/endorsement.ts";
import { runCliWith } from "../support/cli.ts";
import { expectGolden } from "../support/golden.ts";
import { approvalOf, clusterState, CONSUMED_THEN_STALE, FIXTURES_NOW, NS, SCHEMA } from "./fixtures.ts";

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-export-test-"));
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

let n = 0;
const fresh = (): string => path.join(DIR, `plan-${++n}.json`);

function stateWithApproval() {
  const base = clusterState();
  return clusterState({ extra: [approvalOf(base.applied, { name: "storefront-v1", conditions: CONSUMED_THEN_STALE })], current: base.current, applied: base.applied });
}

async function exportTo(file: string, state = stateWithApproval(), plan?: string) {
  return runCliWith(["plan", SCHEMA, "--plan", plan ?? state.applied.name, "--export", file], state.reader, { namespace: NS, now: FIXTURES_NOW });
}

const verifyFile = (file: string) => runCliWith(["plan", "--verify", "-f", file], undefined);

describe("plan --plan NAME", () => {
  it("reads a retained plan by name with every check, and says which plan it is", async () => {
    const state = clusterState();
    const r = await runCliWith(["plan", SCHEMA, "--plan", state.applied.name], state.reader, { namespace: NS, now: FIXTURES_NOW });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Plan:           named (${state.applied.name})`);
    const v = await runCliWith(["plan", SCHEMA, "--plan", state.applied.name, "--verify"], state.reader, { namespace: NS, now: FIXTURES_NOW });
    expect(v.stdout).toContain(`The stored plan ${state.applied.name} of application/storefront verified:`);
    expect(v.stdout).toMatch(/^fingerprint +ok /mu);
  });

  it("refuses a plan of another schema, and a name nothing holds (exit 3)", async () => {
    const state = clusterState();
    const gone = await runCliWith(["plan", SCHEMA, "--plan", "ptah-plan-nope"], state.reader, { namespace: NS });
    expect(gone).toMatchObject({ status: 3, stdout: "", stderr: "error: no such plan: the stored plan ptah-plan-nope is gone\n" });
  });

  it.each<[string, string[], string]>([
    ["--plan with --applied", ["plan", "s", "--plan", "p", "--applied"], "--plan names one plan; drop --applied"],
    ["--export with -o sql", ["plan", "s", "--export", "f", "-o", "sql"], "--export writes a file and prints one line"],
    ["--export with --verify", ["plan", "s", "--export", "f", "--verify"], "--export writes a file and prints one line"],
    ["-f without --verify", ["plan", "-f", "f"], "-f reads an export to verify it; add --verify"],
    ["-f with a schema", ["plan", "s", "--verify", "-f", "f"], "an export names its own schema"],
    ["-f with --plan", ["plan", "--verify", "-f", "f", "--plan", "p"], "--verify -f checks an export file and takes no --plan"],
  ])("refuses %s as a usage error, before connecting", async (_name, argv, message) => {
    const r = await runCliWith(argv, clusterState().reader);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: [^\n]+\n$/u);
    expect(r.stderr).toContain(message);
    expect(r.connects).toBe(0);
  });
});

describe("plan --export FILE and plan --verify -f FILE", () => {
  it("writes one file holding the objects, the document bytes and the fingerprint inputs, and says so in one line", async () => {
    const file = fresh();
    const state = stateWithApproval();
    const r = await exportTo(file, state);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `ptahschemaplan/${state.applied.name} exported to ${file} (${state.applied.documentBytes.length} bytes, fingerprint ${state.applied.fingerprint}, 1 approval)\n`,
    );
    const doc = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, any>;
    expect(Buffer.from(doc.document.base64, "base64").equals(Buffer.from(state.applied.documentBytes))).toBe(true);
    expect(doc.objects.plan.metadata.name).toBe(state.applied.name);
    expect(doc.objects.chunks).toHaveLength(state.applied.chunks.length);
    expect(doc.objects.approvals.map((a: any) => a.metadata.name)).toEqual(["storefront-v1"]);
    expect(doc.fingerprintInputs.schemaUID).toBe(doc.objects.schema.metadata.uid);
    expect(doc.seal).toMatch(/^sha256:[0-9a-f]{64}$/u);
  });

  it("never replaces a file that exists", async () => {
    const file = fresh();
    fs.writeFileSync(file, "earlier evidence\n");
    const r = await exportTo(file);
    expect(r).toMatchObject({ status: 1, stdout: "", stderr: `error: ${file} already exists; an export never replaces a file\n` });
    expect(fs.readFileSync(file, "utf8")).toBe("earlier evidence\n");
  });

  it("re-verifies offline, without connecting, with every check plan makes and the export's own", async () => {
    const file = fresh();
    await exportTo(file);
    const r = await verifyFile(file);
    expect(r.status, r.stderr).toBe(0);
    expect(r.connects).toBe(0);
    await expectGolden(r.stdout.replace(file, "FILE"), "plan/export-verify.txt");
  });

  it("carries the plan's endorsements inside the schema as served, and names them when it verifies", async () => {
    const file = fresh();
    const state = stateWithApproval();
    const annotations = { [endorsementKey(state.applied.fingerprint)]: "alice,dave", [endorsementKey(`sha256:${"0".repeat(64)}`)]: "mallory" };
    // The reader holds copies: the schema is put again with the annotations, as the cluster serves it.
    state.reader.put("PtahSchema", { ...state.schema, metadata: { ...(state.schema.metadata as object), annotations } });
    expect((await exportTo(file, state)).status).toBe(0);
    const r = await verifyFile(file);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^endorsements +ok +alice, dave \(the schema's endorsement annotation for this plan, as exported\)$/mu);
    expect(r.stdout).not.toContain("mallory");
  });

  it("refuses an export whose plan was tampered with and resealed (the checks, not the seal, catch it)", async () => {
    const file = fresh();
    await exportTo(file);
    const doc = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, any>;
    doc.objects.plan.spec.destructive = true;
    const { seal: _old, ...body } = doc;
    const { createHash } = await import("node:crypto");
    const sealed = {
      ...body,
      seal: `sha256:${createHash("sha256")
        .update(JSON.stringify(body, null, 2))
        .digest("hex")}`,
    };
    fs.writeFileSync(file, JSON.stringify(sealed, null, 2) + "\n");
    const r = await verifyFile(file);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: the stored plan \S+ carries the fingerprint sha256:[0-9a-f]{64}, but its spec recomputes to /u);
    expect(r.stdout).toMatch(/^fingerprint +FAILED /mu);
    expect(r.stdout).toContain("did not verify; nothing from it was printed.");
  });

  it("refuses a file that does not exist with kubectl's words (exit 2)", async () => {
    const r = await verifyFile(path.join(DIR, "nope.json"));
    expect(r).toMatchObject({ status: 2, stdout: "" });
    expect(r.stderr).toContain(`the path "${path.join(DIR, "nope.json")}" does not exist`);
  });

  it("refuses the file when any one byte of it is changed", async () => {
    const file = fresh();
    await exportTo(file);
    const bytes = fs.readFileSync(file);
    const changed = path.join(DIR, "changed.json");
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, delta) => {
        const copy = Buffer.from(bytes);
        copy[at] = (copy[at]! + delta) % 256;
        fs.writeFileSync(changed, copy);
        const r = await verifyFile(changed);
        expect(r.status, `byte ${at} changed by ${delta} was accepted`).toBe(1);
        expect(r.stderr).toMatch(/^error: [^\n]+\n$/u);
        expect(r.stdout).not.toContain("verified:");
      }),
      { numRuns: 200 },
    );
  });
});
