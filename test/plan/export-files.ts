// Export files for the tests of `plan --verify -f FILE`: one export of the fixture cluster through
// the real shell, copies of it changed and re-sealed as an export seals them (anyone can recompute
// the seal), and the verification of a file, through the real shell, without a cluster.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { runCliWith } from "../support/cli.ts";
import { approvalOf, clusterState, CONSUMED_THEN_STALE, FIXTURES_NOW, NS, SCHEMA, type State } from "./fixtures.ts";

export type Doc = Record<string, any>;

/** A folder for one test file's exports; the caller removes it (afterAll). */
export const exportDir = (name: string): string => fs.mkdtempSync(path.join(os.tmpdir(), `ptah-${name}-`));

export const sha256 = (bytes: Uint8Array | string): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** The applied plan with one approval naming it. */
export function stateWithApproval(): State {
  const base = clusterState();
  return clusterState({ extra: [approvalOf(base.applied, { name: "storefront-v1", conditions: CONSUMED_THEN_STALE })], current: base.current, applied: base.applied });
}

/** `plan SCHEMA <selection> --export FILE` through the shell; the file's text. */
export async function exportOf(dir: string, state: State, selection: readonly string[] = ["--plan", state.applied.name]): Promise<string> {
  const file = path.join(dir, `export-${++written}.json`);
  const r = await runCliWith(["plan", SCHEMA, ...selection, "--export", file], state.reader, { namespace: NS, now: FIXTURES_NOW });
  expect(r.status, r.stderr).toBe(0);
  return fs.readFileSync(file, "utf8");
}

/** The seal as the export format states it: sha256 over the pretty JSON of everything but the seal. */
export function reseal(doc: Doc): string {
  const { seal: _old, ...body } = doc;
  return JSON.stringify({ ...body, seal: sha256(JSON.stringify(body, null, 2)) }, null, 2) + "\n";
}

let written = 0;

/** `plan --verify -f FILE` over these bytes, written to a new file. */
export async function verifyBytes(dir: string, bytes: string | Uint8Array) {
  const file = path.join(dir, `verify-${++written}.json`);
  fs.writeFileSync(file, bytes);
  return runCliWith(["plan", "--verify", "-f", file], undefined);
}

/** A copy of `text` changed by `change`, re-sealed, and verified. */
export function verifyChanged(dir: string, text: string, change: (doc: Doc) => void) {
  const doc = JSON.parse(text) as Doc;
  change(doc);
  return verifyBytes(dir, reseal(doc));
}

/** The report's rows: [check, result, detail]. */
export const rowsOf = (stdout: string): string[][] =>
  stdout
    .split("\n")
    .filter((l) => / {2,}(ok|FAILED) {2,}/u.test(l))
    .map((l) => l.split(/ {2,}/u));

/** Refused by `check` with `message` (the row and the one error line), nothing printed but the report. */
export function expectRefused(r: Awaited<ReturnType<typeof verifyBytes>>, check: string, message: string): void {
  expect(r.stderr).toBe(`error: ${message}\n`);
  expect(r.status).toBe(1);
  const rows = rowsOf(r.stdout);
  expect(rows.at(-1)).toEqual([check, "FAILED", message]);
  expect(rows.slice(0, -1).every((row) => row[1] === "ok")).toBe(true);
  expect(r.stdout).toContain("did not verify; nothing from it was printed.");
  expect(r.connects).toBe(0);
}

/** Under `npm run mutate` every mutant a generated test covers runs it: fewer cases there. */
export const UNDER_MUTATION = process.env.PTAH_UNDER_MUTATION !== undefined;
