// The export file's own form, read by `plan --verify -f FILE` before any check of the plan: UTF-8,
// JSON, this format and version, byte for byte the canonical form, sealed. Each refusal through the
// real shell, with its exact line and report; the canonical form against an oracle written from
// its rule (ECMA-262 JSON.stringify with an indent of two spaces, then one newline), not from the
// plugin's own code.
import fs from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportDir, exportOf, reseal, rowsOf, sha256, stateWithApproval, UNDER_MUTATION, verifyBytes, type Doc } from "./export-files.ts";

const DIR = exportDir("export-form");
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

let text = "";
beforeAll(async () => {
  text = await exportOf(DIR, stateWithApproval());
});

/** The report of a file refused before its names were read: no schema, no plan, the file row alone. */
const refusedAtForm = (message: string): string =>
  `CHECK   RESULT   DETAIL\nfile    FAILED   ${message}\n\nThe exported plan of ?/? did not verify; nothing from it was printed.\n`;

describe("plan --verify -f FILE: the file's form, each refusal exactly", () => {
  const FORMAT = "kubectl-ptah/plan-export";
  const canonical = (v: unknown) => JSON.stringify(v, null, 2) + "\n";
  it.each<[string, () => string | Uint8Array, string]>([
    ["bytes that are not UTF-8, inside a JSON string", () => Buffer.concat([Buffer.from('{"format": "'), Buffer.from([0xff]), Buffer.from('"}\n')]), "is not UTF-8 text"],
    ["a lone continuation byte after a valid export", () => Buffer.concat([Buffer.from(text), Buffer.from([0x80])]), "is not UTF-8 text"],
    ["text that is not JSON", () => "{ not json\n", "is not JSON"],
    ["an empty file", () => "", "is not JSON"],
    ["null", () => "null\n", `is not a ${FORMAT} file`],
    ["a list", () => "[]\n", `is not a ${FORMAT} file`],
    ["a string", () => '"kubectl-ptah/plan-export"\n', `is not a ${FORMAT} file`],
    ["an object without a format", () => canonical({ formatVersion: 1 }), `is not a ${FORMAT} file`],
    ["another format, version 1, canonical", () => canonical({ format: "kubectl-ptah/other", formatVersion: 1 }), `is not a ${FORMAT} file`],
    ["the format without a version", () => canonical({ format: FORMAT }), "has format version undefined; this plugin reads 1"],
    ["version 2", () => canonical({ format: FORMAT, formatVersion: 2 }), "has format version 2; this plugin reads 1"],
    ['version "1"', () => canonical({ format: FORMAT, formatVersion: "1" }), 'has format version "1"; this plugin reads 1'],
    ["the export without its final newline", () => text.slice(0, -1), "is not byte for byte as an export writes it"],
    ["the export on one line", () => JSON.stringify(JSON.parse(text)) + "\n", "is not byte for byte as an export writes it"],
    ["the export with CRLF line ends", () => text.replace(/\n/gu, "\r\n"), "is not byte for byte as an export writes it"],
  ])("%s", async (_name, bytes, message) => {
    const r = await verifyBytes(DIR, bytes());
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 1,
      stdout: refusedAtForm(`the export file ${message}`),
      stderr: `error: the export file ${message}\n`,
    });
  });

  it("names the seal it holds and the one its content seals to, when a byte under the seal changed", async () => {
    const doc = JSON.parse(text) as Doc;
    const stated = doc.seal as string;
    doc.exportedBy = "someone else";
    const { seal: _s, ...body } = doc;
    const r = await verifyBytes(DIR, JSON.stringify(doc, null, 2) + "\n");
    const message = `the export file was changed after it was written: its seal is "${stated}", its content seals to ${sha256(JSON.stringify(body, null, 2))}`;
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 1, stdout: refusedAtForm(message), stderr: `error: ${message}\n` });
  });

  it("names a missing seal as undefined", async () => {
    const { seal: _s, ...body } = JSON.parse(text) as Doc;
    const r = await verifyBytes(DIR, JSON.stringify(body, null, 2) + "\n");
    expect(r.stderr).toBe(`error: the export file was changed after it was written: its seal is undefined, its content seals to ${sha256(JSON.stringify(body, null, 2))}\n`);
  });

  it("writes the format, its version, the seal and the canonical form a reader outside the plugin can check", () => {
    const doc = JSON.parse(text) as Doc;
    expect([doc.format, doc.formatVersion]).toEqual(["kubectl-ptah/plan-export", 1]);
    expect(Object.keys(doc)).toEqual([
      "format",
      "formatVersion",
      "exportedAt",
      "exportedBy",
      "namespace",
      "schema",
      "plan",
      "fingerprint",
      "fingerprintInputs",
      "document",
      "objects",
      "seal",
    ]);
    expect(pretty(doc) + "\n").toBe(text);
    const { seal, ...body } = doc;
    expect(seal).toBe(sha256(pretty(body)));
  });

  it("states the file row of an export it accepts: its size, its seal, when and by whom", async () => {
    const r = await verifyBytes(DIR, text);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(text) as Doc;
    expect(rowsOf(r.stdout)[0]).toEqual(["file", "ok", `${Buffer.byteLength(text)} bytes, sealed ${doc.seal}, exported 2026-09-13T09:00:00.000Z by kubectl-ptah v0.0.0-test`]);
  });
});

// ------------------------------------------------------------------ the canonical form's oracle

/** A JSON string as ECMA-262's QuoteJSONString writes it (well-formed: lone surrogates escaped). */
function quote(s: string): string {
  const short: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const u = s.charCodeAt(i);
    const hex = (n: number) => `\\u${n.toString(16).padStart(4, "0")}`;
    if (short[c] !== undefined) out += short[c];
    else if (u < 0x20) out += hex(u);
    else if (u >= 0xd800 && u <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) out += c + s[++i]!;
    else if (u >= 0xd800 && u <= 0xdfff) out += hex(u);
    else out += c;
  }
  return `${out}"`;
}

/** The export's canonical form, from the rule: two spaces an indent, `"key": value`, empty {} and []. */
function pretty(v: unknown, indent = ""): string {
  const inner = `${indent}  `;
  if (v === null) return "null";
  if (typeof v === "string") return quote(v);
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (Array.isArray(v)) return v.length === 0 ? "[]" : `[\n${v.map((x) => inner + pretty(x, inner)).join(",\n")}\n${indent}]`;
  const entries = Object.entries(v as Record<string, unknown>);
  return entries.length === 0 ? "{}" : `{\n${entries.map(([k, x]) => `${inner}${quote(k)}: ${pretty(x, inner)}`).join(",\n")}\n${indent}}`;
}

describe("plan --verify -f FILE: the canonical form, generated", () => {
  const value = fc.jsonValue({ maxDepth: 4, stringUnit: "binary" });

  it("accepts any JSON value beside the export's fields written in the canonical form and sealed, as the oracle writes them", async () => {
    await fc.assert(
      fc.asyncProperty(value, async (extra) => {
        const { seal: _s, ...rest } = JSON.parse(text) as Doc;
        const body = { ...rest, extra };
        const file = `${pretty({ ...body, seal: sha256(pretty(body)) })}\n`;
        const r = await verifyBytes(DIR, file);
        expect(r.stderr).toBe("");
        expect(r.status).toBe(0);
      }),
      { numRuns: UNDER_MUTATION ? 8 : 25 },
    );
  });

  it("refuses the same content in any other spelling: another indent, escapes, spaces", async () => {
    const respell = fc.constantFrom<[string, (s: string) => string]>(
      ["indent 4", (s) => JSON.stringify(JSON.parse(s), null, 4) + "\n"],
      ["tab indent", (s) => JSON.stringify(JSON.parse(s), null, "\t") + "\n"],
      ["a space before a colon", (s) => s.replace('"format":', '"format" :')],
      ["an escaped letter", (s) => s.replace('"kubectl-ptah/plan-export"', '"\\u006bubectl-ptah/plan-export"')],
      ["an escaped slash", (s) => s.replace('"kubectl-ptah/plan-export"', '"kubectl-ptah\\/plan-export"')],
      ["a trailing space", (s) => s.replace(/,\n/u, ", \n")],
      ["two final newlines", (s) => `${s}\n`],
      ["a leading space", (s) => ` ${s}`],
    );
    await fc.assert(
      fc.asyncProperty(value, respell, async (extra, [_name, change]) => {
        const { seal: _s, ...rest } = JSON.parse(text) as Doc;
        const canonicalText = reseal({ ...rest, extra });
        const other = change(canonicalText);
        fc.pre(other !== canonicalText);
        const r = await verifyBytes(DIR, other);
        expect(r.stderr).toBe("error: the export file is not byte for byte as an export writes it\n");
      }),
      { numRuns: UNDER_MUTATION ? 8 : 25 },
    );
  });
});
