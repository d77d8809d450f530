// `plan --verify -f FILE` reads at most what an export can hold (MAX_EXPORT_BYTES): /dev/zero, or
// any file one byte longer, is refused in one line at once, with bounded memory, instead of being
// read for ever. An export of a plan at the operator's own limits stays well inside the bound.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_EXPORT_BYTES } from "../../src/plan/export.ts";
import { MAX_CHUNKS, MAX_PLAN_BYTES } from "../../src/plan/verify.ts";
import { runCliWith } from "../support/cli.ts";
import { clusterState, FIXTURES_NOW, NS, publishApplied, SCHEMA } from "./fixtures.ts";

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-export-limit-"));
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

const verifyFile = (file: string) => runCliWith(["plan", "--verify", "-f", file], undefined);

const refusal = (file: string): string =>
  `error: ${file} is larger than ${MAX_EXPORT_BYTES} bytes; an export is at most ${MAX_EXPORT_BYTES} bytes (a plan's ${MAX_PLAN_BYTES} bytes at most, twice as base64, and the objects around them)\n`;

describe("plan --verify -f reads at most an export's size", () => {
  it("refuses /dev/zero in one line, quickly", async () => {
    const started = performance.now();
    const r = await verifyFile("/dev/zero");
    const ms = performance.now() - started;
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 1, stdout: "", stderr: refusal("/dev/zero") });
    expect(ms).toBeLessThan(5_000);
  });

  it("refuses a file one byte over the limit in one line; a file of exactly the limit is read (and then refused as no export)", async () => {
    const over = path.join(DIR, "over.json");
    fs.writeFileSync(over, Buffer.alloc(MAX_EXPORT_BYTES + 1, 0x20));
    const r = await verifyFile(over);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 1, stdout: "", stderr: refusal(over) });
    fs.truncateSync(over, MAX_EXPORT_BYTES);
    const at = await verifyFile(over);
    expect(at.status).toBe(1);
    expect(at.stderr).toBe("error: the export file is not JSON\n");
  });

  it("an export of a plan at the operator's limits (16 chunks, nearly 8 MiB) is verified, far inside the bound", async () => {
    // One statement of ~4 KiB repeated up to the document limit, with room for the document's own fields.
    const sql = `INSERT INTO "t" ("v") VALUES ('${"x".repeat(4_000)}');`;
    const count = Math.floor((MAX_PLAN_BYTES - 64 * 1024) / (sql.length + 64));
    const applied = publishApplied({ statements: Array.from({ length: count }, (_, i) => ({ sql, severity: "info" as const, reason: `row ${i}` })) });
    expect(applied.chunks).toHaveLength(MAX_CHUNKS);
    const base = clusterState();
    const state = clusterState({ applied, current: base.current });
    const file = path.join(DIR, "largest.json");
    const exported = await runCliWith(["plan", SCHEMA, "--plan", applied.name, "--export", file], state.reader, { namespace: NS, now: FIXTURES_NOW });
    expect(exported.status, exported.stderr).toBe(0);
    const size = fs.statSync(file).size;
    console.log(
      `largest plan export: ${applied.documentBytes.length} document bytes in ${applied.chunks.length} chunks, ${size} bytes of export; the bound is ${MAX_EXPORT_BYTES}`,
    );
    expect(size).toBeLessThan(MAX_EXPORT_BYTES / 2);
    const r = await verifyFile(file);
    expect(r.status, r.stderr).toBe(0);
  });
});
