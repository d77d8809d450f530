// Readers of the parser's JSON tree: a node is `{Kind: {fields}}`, lists are arrays of nodes,
// names are lists of `{String: {sval}}`. Every reader tolerates a missing or odd field (the
// statement is then reported as not analysed by the caller, never thrown past it).
import { isNode, type Node } from "./parser.ts";

/** The one kind of a wrapped node (`{AlterTableStmt: …}` → ["AlterTableStmt", body]). */
export function unwrap(n: unknown): [string, Node] | undefined {
  const kind = kindOf(n);
  if (kind === undefined) return undefined;
  const body = (n as Node)[kind];
  return isNode(body) ? [kind, body] : undefined;
}

/** The one key of a node, without building the list of its keys (an 8 MiB plan has millions of nodes). */
function kindOf(n: unknown): string | undefined {
  if (!isNode(n)) return undefined;
  let kind: string | undefined;
  for (const k in n) {
    if (kind !== undefined) return undefined;
    kind = k;
  }
  return kind;
}

export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The strings of a name list (`[{String: {sval: "public"}}, …]`). */
export function names(v: unknown): string[] {
  const out: string[] = [];
  for (const item of list(v)) {
    const u = unwrap(item);
    if (u?.[0] === "String" && typeof u[1].sval === "string") out.push(u[1].sval);
  }
  return out;
}

/** An identifier as PostgreSQL prints it: bare when it needs no quotes, else double-quoted. */
export function quoteIdent(id: string): string {
  return /^[a-z_][a-z0-9_$]*$/u.test(id) && !RESERVED.has(id) ? id : `"${id.replaceAll('"', '""')}"`;
}

// Words quote_ident() quotes although they match the bare pattern (the reserved keywords a
// relation name is likely to collide with).
const RESERVED = new Set([
  "all",
  "analyse",
  "analyze",
  "and",
  "any",
  "array",
  "as",
  "asc",
  "check",
  "column",
  "constraint",
  "create",
  "default",
  "desc",
  "distinct",
  "do",
  "else",
  "end",
  "except",
  "false",
  "for",
  "foreign",
  "from",
  "grant",
  "group",
  "having",
  "in",
  "into",
  "limit",
  "not",
  "null",
  "offset",
  "on",
  "only",
  "or",
  "order",
  "primary",
  "references",
  "select",
  "table",
  "then",
  "to",
  "true",
  "union",
  "unique",
  "user",
  "using",
  "when",
  "where",
  "with",
]);

/** A schema-qualified relation name from schema and name parts (unqualified: `public`). */
export const qualified = (schema: string | undefined, name: string): string => `${quoteIdent(schema ?? "public")}.${quoteIdent(name)}`;

/** The qualified name of a RangeVar body (`{schemaname?, relname}`). */
export function rangeVar(rv: unknown): string | undefined {
  if (!isNode(rv)) return undefined;
  const name = text(rv.relname);
  return name === undefined ? undefined : qualified(text(rv.schemaname), name);
}

/** Whether a RangeVar was written with ONLY: the parser writes `inh` only when it is true. */
export const isOnly = (rv: unknown): boolean => isNode(rv) && rv.inh !== true;

/** The qualified name of a dotted name list (DROP's objects, COMMENT's object): [schema,] name. */
export function dotted(parts: string[]): string | undefined {
  if (parts.length === 1) return qualified(undefined, parts[0]!);
  if (parts.length === 2) return qualified(parts[0], parts[1]!);
  return undefined;
}

/** A column type as `name` (without pg_catalog) and its integer modifiers; arrays marked. */
export interface TypeRef {
  readonly name: string;
  readonly mods: readonly number[];
  readonly array: boolean;
}

export function typeRef(tn: unknown): TypeRef | undefined {
  if (!isNode(tn)) return undefined;
  const parts = names(tn.names);
  const name = parts[parts.length - 1];
  if (name === undefined) return undefined;
  const mods: number[] = [];
  for (const m of list(tn.typmods)) {
    const c = unwrap(m);
    const ival = c?.[0] === "A_Const" && isNode(c[1].ival) ? c[1].ival.ival : undefined;
    mods.push(typeof ival === "number" ? ival : 0);
  }
  return { name: ALIASES[name] ?? name, mods, array: list(tn.arrayBounds).length > 0 };
}

// The parser writes most built-in types by their catalog name already; these are the rest.
const ALIASES: Record<string, string> = {
  integer: "int4",
  int: "int4",
  bigint: "int8",
  smallint: "int2",
  "character varying": "varchar",
  character: "bpchar",
  char: "bpchar",
  decimal: "numeric",
  boolean: "bool",
};

/** The serial pseudo-types: a column of one gets a sequence and a nextval() default. */
export const SERIAL = new Set(["serial", "serial4", "bigserial", "serial8", "smallserial", "serial2"]);

/**
 * Visits every node of a tree, depth-first, without recursion (a deep tree must not overflow the
 * stack); `visit` returning true stops the walk. Throws past `limit` nodes.
 */
export function walk(root: unknown, visit: (kind: string, body: Node) => boolean | void, limit = 200_000): void {
  const stack: unknown[] = [root];
  let seen = 0;
  while (stack.length > 0) {
    if (++seen > limit) throw new Error(`the statement's tree has over ${limit} nodes`);
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
      continue;
    }
    if (!isNode(v)) continue;
    const u = unwrap(v);
    if (u && visit(u[0], u[1]) === true) return;
    const fields = u ? u[1] : v;
    for (const k in fields) {
      const child = fields[k];
      if (typeof child === "object" && child !== null) stack.push(child);
    }
  }
}

// Built-in functions whose value a default may take once for every row (not volatile): an added
// column with such a default is written to the catalog only. Any other function is assumed
// volatile, which rewrites the table: the worst case, said so in the finding.
const NOT_VOLATILE = new Set([
  "now",
  "transaction_timestamp",
  "statement_timestamp",
  "lower",
  "upper",
  "length",
  "abs",
  "round",
  "concat",
  "btrim",
  "trim",
  "make_date",
  "make_timestamp",
  "to_timestamp",
  "to_date",
  "to_char",
  "jsonb_build_object",
  "json_build_object",
  "jsonb_build_array",
  "array_length",
  "current_setting",
  "format",
  "replace",
  "substr",
  "substring",
  "md5",
]);

/** Whether evaluating `expr` once per row could give different values (true for unknown functions). */
export function volatile(expr: unknown): boolean {
  let found = false;
  walk(expr, (kind, body) => {
    if (kind === "FuncCall") {
      const fn = names(body.funcname);
      const name = fn[fn.length - 1] ?? "";
      if (!NOT_VOLATILE.has(name) || (fn.length === 2 && fn[0] !== "pg_catalog")) found = true;
    }
    if (kind === "SubLink") found = true;
    return found;
  });
  return found;
}

/** The SQL text of a parse tree's function name, for a message. */
export function functionNames(expr: unknown): string[] {
  const out: string[] = [];
  walk(expr, (kind, body) => {
    if (kind === "FuncCall") out.push(names(body.funcname).join("."));
  });
  return out;
}

/** The column a ColumnRef names (one field), or undefined. */
export function columnRef(expr: unknown): string | undefined {
  const u = unwrap(expr);
  if (u?.[0] !== "ColumnRef") return undefined;
  const f = names(u[1].fields);
  return f.length === 1 ? f[0] : undefined;
}
