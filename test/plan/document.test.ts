import { describe, expect, it } from "vitest";
import { decodePlanDocument } from "../../src/plan/document.ts";
import { serializePlanDocument } from "../support/publish-plan.ts";

const base = {
  name: "storefront",
  dialect: "postgres",
  fromFingerprint: "sha256:from",
  toFingerprint: "sha256:to",
  destructive: false,
  statements: [{ sql: "SELECT 1;", severity: "safe", reason: "r" }],
};

const decode = (text: string, dialect = "postgres") => decodePlanDocument(Buffer.from(text, "utf8"), "ptah-plan-x", dialect);

describe("decodePlanDocument", () => {
  it("decodes a document the operator writes, keeping its key order", () => {
    const doc = decode(serializePlanDocument({ ...base, managedRows: [{ table: "settings", keys: ["key"], columns: ["key", "value"] }] }));
    expect(doc.statements).toEqual([{ sql: "SELECT 1;", severity: "safe", reason: "r" }]);
    expect(doc.managedRows).toEqual([{ table: "settings", keys: ["key"], columns: ["key", "value"] }]);
    expect(Object.keys(doc.value)).toEqual([
      "format_version",
      "name",
      "dialect",
      "from_fingerprint",
      "to_fingerprint",
      "managed_rows",
      "rows_fingerprint",
      "destructive",
      "statements",
    ]);
  });

  it("treats postgres and postgresql as one dialect", () => {
    expect(decode(serializePlanDocument(base), "postgresql").dialect).toBe("postgres");
  });

  it.each<{ name: string; text: string; message: string }>([
    { name: "invalid UTF-8", text: "\uFFFD", message: "" },
    { name: "not an object", text: "[]", message: "the document is not a JSON object" },
    { name: "no format_version", text: '{"name":"x"}', message: "format_version is missing" },
    { name: "a future format_version", text: '{"format_version":2,"whatever":true}', message: "format_version 2 is not supported" },
    { name: "an unknown field", text: serializePlanDocument(base).replace('"name"', '"owner":"x","name"'), message: 'unknown field "owner"' },
    { name: "a duplicate key", text: serializePlanDocument(base).replace('"name":"storefront"', '"name":"a","name":"b"'), message: 'duplicate key "name"' },
    { name: "no statements", text: serializePlanDocument(base).replace(/"statements":\[.*\]/, '"statements":[]'), message: "the document holds no statements" },
    { name: "an empty statement", text: serializePlanDocument({ ...base, statements: [{ sql: "  ", severity: "safe" }] }), message: "statement 1: sql is empty" },
    { name: "an unknown statement field", text: serializePlanDocument(base).replace('"reason":"r"', '"reason":"r","run":"now"'), message: 'statement 1: unknown field "run"' },
    { name: "an empty name", text: serializePlanDocument({ ...base, name: "" }), message: "name is empty" },
    {
      name: "a key that is not a column",
      text: serializePlanDocument({ ...base, managedRows: [{ table: "t", keys: ["id"], columns: ["v"] }] }),
      message: 'managed_rows[0]: key "id" is not one of its columns',
    },
    { name: "trailing text", text: serializePlanDocument(base) + "{}", message: "unexpected text after the document" },
  ])("refuses $name", ({ name, text, message }) => {
    const bytes = name === "invalid UTF-8" ? Buffer.from([0x7b, 0xff, 0x7d]) : Buffer.from(text, "utf8");
    expect(() => decodePlanDocument(bytes, "ptah-plan-x", "postgres")).toThrow(`unsupported plan format: ptah-plan-x: ${message}`);
  });

  it("raises destructiveness it reads in the SQL, never lowers it", () => {
    expect(decode(serializePlanDocument({ ...base, statements: [{ sql: "DROP TABLE t", severity: "warning" }] })).destructiveRead).toBe(true);
    expect(decode(serializePlanDocument({ ...base, destructive: true })).destructive).toBe(true);
  });
});
