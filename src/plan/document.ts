// The plan document: strict decode of format_version 1 and the
// cross-checks against the plan object it came from. Pure.
import { VerificationError } from "../errors.ts";
import { canonicalEngine } from "../model/engine.ts";
import type { PtahSchemaPlan } from "../model/kinds.ts";
import { readSql, sortPrivilegeKinds } from "./sql.ts";
import { parseStrictJson, StrictJsonError, type JsonValue } from "./strict-json.ts";
import { trimSpace } from "./trim-space.ts";

export const PLAN_FORMAT_VERSION = 1;

/** Statement severities the plugin knows (the operator's severity vocabulary). */
export const STATEMENT_SEVERITIES: readonly string[] = ["safe", "info", "warning", "error", "destructive"];

export interface PlanStatement {
  readonly sql: string;
  readonly severity: string;
  readonly reason: string;
}

export interface ManagedRows {
  readonly schema?: string;
  readonly table: string;
  readonly keys: readonly string[];
  readonly columns: readonly string[];
}

export interface PlanDocument {
  readonly formatVersion: number;
  readonly name: string;
  readonly dialect: string;
  readonly fromFingerprint: string;
  readonly toFingerprint: string;
  readonly exclude: readonly string[] | undefined;
  readonly managedRows: readonly ManagedRows[] | undefined;
  readonly rowsFingerprint: string | undefined;
  readonly destructive: boolean;
  readonly statements: readonly PlanStatement[];
  /** The document as parsed, keys in stored order (for -o yaml). */
  readonly value: { readonly [key: string]: JsonValue };
  /** Privilege kinds this plugin reads in the SQL, in the contract's enum order. */
  readonly privilegeKindsRead: readonly string[];
  /** True when the SQL reads as destructive (DROP TABLE/COLUMN, TRUNCATE, column type changes). */
  readonly destructiveRead: boolean;
}

const TOP_LEVEL = new Set([
  "format_version",
  "name",
  "dialect",
  "from_fingerprint",
  "to_fingerprint",
  "exclude",
  "schemas_beyond_url",
  "managed_rows",
  "rows_fingerprint",
  "destructive",
  "statements",
]);
const STATEMENT_KEYS = new Set(["sql", "severity", "reason"]);
const MANAGED_ROW_KEYS = new Set(["schema", "table", "keys", "columns"]);

class DecodeProblem extends Error {}

function fail(what: string): never {
  throw new DecodeProblem(what);
}

type JsonObject = { readonly [key: string]: JsonValue };

function isObject(v: JsonValue | undefined): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function refuseUnknown(obj: JsonObject, known: ReadonlySet<string>, where: string): void {
  for (const key of Object.keys(obj)) {
    if (!known.has(key)) fail(`${where}unknown field ${JSON.stringify(key)}`);
  }
}

function str(obj: JsonObject, key: string, where: string, required: boolean): string {
  const v = obj[key];
  if (v === undefined || v === null) {
    if (required) fail(`${where}${key} is missing`);
    return "";
  }
  if (typeof v !== "string") fail(`${where}${key} is not a string`);
  if (required && trimSpace(v) === "") fail(`${where}${key} is empty`);
  return v;
}

function strList(v: JsonValue | undefined, what: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((s) => typeof s !== "string")) fail(`${what} is not a list of strings`);
  return v as string[];
}

function bool(obj: JsonObject, key: string): boolean {
  const v = obj[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== "boolean") fail(`${key} is not a boolean`);
  return v;
}

/** Decodes bytes that already matched their content digest. Throws VerificationError. */
export function decodePlanDocument(bytes: Uint8Array, planName: string, planDialect: string): PlanDocument {
  try {
    return decode(bytes, planDialect);
  } catch (err) {
    if (err instanceof DecodeProblem || err instanceof StrictJsonError) {
      throw new VerificationError(`unsupported plan format: ${planName}: ${err.message}`);
    }
    throw err;
  }
}

function decode(bytes: Uint8Array, planDialect: string): PlanDocument {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    fail("the document is not valid UTF-8");
  }
  const value = parseStrictJson(text);
  if (!isObject(value)) fail("the document is not a JSON object");
  const doc = value;

  // The version decides how the rest reads, so it is checked before any other field.
  const version = doc["format_version"];
  if (typeof version !== "number" || !Number.isInteger(version)) fail("format_version is missing");
  if (version !== PLAN_FORMAT_VERSION) {
    fail(`format_version ${version} is not supported (this plugin reads ${PLAN_FORMAT_VERSION})`);
  }
  refuseUnknown(doc, TOP_LEVEL, "");

  const name = str(doc, "name", "", true);
  const dialect = str(doc, "dialect", "", true);
  const fromFingerprint = str(doc, "from_fingerprint", "", true);
  const toFingerprint = str(doc, "to_fingerprint", "", true);
  if (!sameDialect(dialect, planDialect)) {
    fail(`the document's dialect ${JSON.stringify(dialect)} is not the plan's ${JSON.stringify(planDialect)}`);
  }
  const exclude = strList(doc["exclude"], "exclude");
  const beyond = doc["schemas_beyond_url"];
  // Its shape is not in the contract; a boolean or a list of schema names is accepted.
  if (beyond !== undefined && beyond !== null && typeof beyond !== "boolean") strList(beyond, "schemas_beyond_url");
  const managedRows = decodeManagedRows(doc["managed_rows"]);
  const rowsFingerprint = doc["rows_fingerprint"] == null ? undefined : str(doc, "rows_fingerprint", "", false);
  if (managedRows && managedRows.length > 0 && !rowsFingerprint) fail("managed_rows without rows_fingerprint");
  const destructive = bool(doc, "destructive");

  const list = doc["statements"];
  if (!Array.isArray(list) || list.length === 0) fail("the document holds no statements");
  const statements: PlanStatement[] = [];
  const kinds: string[] = [];
  let destructiveRead = false;
  list.forEach((item, i) => {
    const where = `statement ${i + 1}: `;
    if (!isObject(item)) fail(`${where}not an object`);
    refuseUnknown(item, STATEMENT_KEYS, where);
    const sql = str(item, "sql", where, true);
    const severity = str(item, "severity", where, true);
    if (!STATEMENT_SEVERITIES.includes(severity)) fail(`${where}unknown severity ${JSON.stringify(severity)}`);
    const reason = str(item, "reason", where, false);
    const read = readSql(sql, dialect);
    if (read.carriesCredentials) fail(`${where}carries credentials (PASSWORD or IDENTIFIED BY), which a plan never does`);
    kinds.push(...read.privilegeKinds);
    if (read.destructive || severity === "destructive") destructiveRead = true;
    statements.push({ sql, severity, reason });
  });

  return {
    formatVersion: version,
    name,
    dialect,
    fromFingerprint,
    toFingerprint,
    exclude,
    managedRows,
    rowsFingerprint,
    destructive,
    statements,
    value: doc,
    privilegeKindsRead: sortPrivilegeKinds(kinds),
    destructiveRead,
  };
}

function decodeManagedRows(v: JsonValue | undefined): ManagedRows[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) fail("managed_rows is not a list");
  return v.map((item, i) => {
    const where = `managed_rows[${i}]: `;
    if (!isObject(item)) fail(`${where}not an object`);
    refuseUnknown(item, MANAGED_ROW_KEYS, where);
    const table = str(item, "table", where, true);
    const schema = item["schema"] == null ? undefined : str(item, "schema", where, false);
    const keys = strList(item["keys"], `${where}keys`) ?? [];
    const columns = strList(item["columns"], `${where}columns`) ?? [];
    if (keys.length === 0) fail(`${where}keys is empty`);
    if (columns.length === 0) fail(`${where}columns is empty`);
    for (const list of [keys, columns]) {
      if (list.some((c) => trimSpace(c) === "")) fail(`${where}names an empty column`);
      if (new Set(list).size !== list.length) fail(`${where}names a column twice`);
    }
    for (const k of keys) if (!columns.includes(k)) fail(`${where}key ${JSON.stringify(k)} is not one of its columns`);
    return schema === undefined ? { table, keys, columns } : { schema, table, keys, columns };
  });
}

/** The same engine by the operator's names for it; names it does not know compare as written, case aside. */
function sameDialect(a: string, b: string): boolean {
  const engine = (d: string): string => canonicalEngine(d) ?? d.trim().toLowerCase();
  return engine(a) === engine(b);
}

/**
 * Cross-checks a decoded document against its plan object; every field
 * compared is bound by the plan fingerprint, so a difference means one of them was altered.
 */
export function crossCheckDocument(doc: PlanDocument, spec: PtahSchemaPlan["spec"]): string[] {
  const problems: string[] = [];
  if (spec.actualStateFingerprint !== undefined && doc.fromFingerprint !== spec.actualStateFingerprint) {
    problems.push(`from_fingerprint ${doc.fromFingerprint} is not the plan's actual-state fingerprint ${spec.actualStateFingerprint}`);
  }
  if (spec.desiredStateFingerprint !== undefined && doc.toFingerprint !== spec.desiredStateFingerprint) {
    problems.push(`to_fingerprint ${doc.toFingerprint} is not the plan's desired-state fingerprint ${spec.desiredStateFingerprint}`);
  }
  if (spec.statementCount !== undefined && doc.statements.length !== spec.statementCount) {
    problems.push(`the document holds ${doc.statements.length} statements and the plan records ${spec.statementCount}`);
  }
  if (doc.destructive !== (spec.destructive ?? false)) {
    problems.push(`the document says destructive ${doc.destructive} and the plan records ${spec.destructive ?? false}`);
  }
  return problems;
}

/**
 * The tables whose rows a declarative-data plan manages, as `schema.table` (empty for a schema-only
 * plan). Such a plan's statements carry the rows' values, so reading it is reading that data.
 */
export function rowValueTables(doc: Pick<PlanDocument, "managedRows">): readonly string[] {
  return (doc.managedRows ?? []).map(managedTableName);
}

/** A managed_rows entry's table as the plugin names it: `schema.table`, or `table` without a schema. */
export function managedTableName(m: { readonly schema?: string | undefined; readonly table: string }): string {
  return m.schema ? `${m.schema}.${m.table}` : m.table;
}

/** `{ rowValues: [tables] }` for a declarative-data plan's JSON summary, else nothing. */
export function rowValuesField(doc: Pick<PlanDocument, "managedRows">): { rowValues?: readonly string[] } {
  const tables = rowValueTables(doc);
  return tables.length === 0 ? {} : { rowValues: tables };
}
