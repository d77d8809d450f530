// What the plan itself says about its relations, learnt statement by statement in plan order:
// the tables it creates (columns, their types, NOT NULL, CHECK constraints, foreign keys) and the
// indexes it creates. The plugin never reads the database, so this is all it knows; a relation
// the plan did not create is unknown, and a verdict that depends on it takes the worst case.
import { columnRef, list, names, rangeVar, text, typeRef, unwrap, type TypeRef } from "./ast.ts";
import { columnsOf, Graph } from "./graph.ts";
import { isNode, type Node } from "./parser.ts";

export interface KnownColumn {
  type?: TypeRef;
  notNull: boolean;
  /** COLLATE's name as written; undefined for the type's default. */
  collation?: string;
}

export interface KnownConstraint {
  readonly kind: "check" | "foreign" | "unique" | "primary" | "other";
  valid: boolean;
  /** CHECK: the columns it proves not null (a strict test of the column). */
  readonly impliesNotNull: readonly string[];
  /** FOREIGN KEY: the referenced table. */
  readonly references?: string;
  /** CHECK: the columns its expression reads (undefined: could not be read, so any). */
  readonly columns?: ReadonlySet<string>;
}

export interface KnownTable {
  readonly columns: Map<string, KnownColumn>;
  readonly constraints: Map<string, KnownConstraint>;
}

/** How a created table's columns are read when a later statement first asks: its CREATE TABLE parsed again. */
export type TableSource = () => Node | undefined;

export class Known {
  /**
   * Tables the plan created. Most are never named again by a later statement, so a table is kept
   * as the way to read its CREATE TABLE again, and its columns and constraints are learnt on the
   * first question (an 8 MiB plan of new tables held 220,000 column records nobody asked about).
   */
  private readonly tables = new Map<string, KnownTable | TableSource>();
  /** Index (qualified) → its table (qualified). */
  readonly indexes = new Map<string, string>();
  /** Foreign keys both ways, indexes' columns, partitions and children, what views read. */
  readonly graph = new Graph();
  /**
   * Set once the plan moves search_path off public (SET search_path): every name is resolved in
   * public, so from then on an unqualified one may name another table. Says why; cleared by RESET.
   */
  namesElsewhere: string | undefined;

  /** Whether the plan created the table (and has not dropped it), without learning its columns. */
  has(name: string): boolean {
    return this.tables.has(name);
  }

  table(name: string): KnownTable | undefined {
    const t = this.tables.get(name);
    if (typeof t !== "function") return t;
    const learnt: KnownTable = { columns: new Map(), constraints: new Map() };
    this.tables.set(name, learnt);
    const body = t();
    if (body !== undefined) this.learnElements(name, body);
    return learnt;
  }

  /** The table an index belongs to, when the plan created it. */
  tableOfIndex(index: string): string | undefined {
    return this.indexes.get(index);
  }

  /** Learns a CREATE TABLE: at once from `body`, or from `source` when a later statement asks. */
  createTable(name: string, body: Node, source?: TableSource): void {
    if (source !== undefined) {
      this.tables.set(name, source);
      return;
    }
    this.tables.set(name, { columns: new Map(), constraints: new Map() });
    this.learnElements(name, body);
  }

  private learnElements(name: string, body: Node): void {
    for (const elt of list(body.tableElts)) {
      const u = unwrap(elt);
      if (u?.[0] === "ColumnDef") this.addColumn(name, u[1]);
      else if (u?.[0] === "Constraint") this.addConstraint(name, u[1]);
    }
  }

  /** Learns a column (CREATE TABLE's or ADD COLUMN's), with its inline constraints. */
  addColumn(table: string, def: Node): void {
    const t = this.table(table);
    const col = text(def.colname);
    if (!t || col === undefined) return;
    const c: KnownColumn = { type: typeRef(def.typeName), notNull: false, collation: collationOf(def) };
    t.columns.set(col, c);
    for (const con of list(def.constraints)) {
      const u = unwrap(con);
      if (u?.[0] !== "Constraint") continue;
      const type = text(u[1].contype);
      if (type === "CONSTR_NOTNULL" || type === "CONSTR_PRIMARY") c.notNull = true;
      if (type === "CONSTR_PRIMARY" || type === "CONSTR_UNIQUE" || type === "CONSTR_CHECK" || type === "CONSTR_FOREIGN") {
        this.addConstraint(table, u[1], col);
      }
    }
  }

  /** Learns a table constraint; `column` for one written inline on a column. */
  addConstraint(table: string, con: Node, column?: string): void {
    const t = this.table(table);
    if (!t) return;
    const type = text(con.contype);
    const valid = con.skip_validation !== true;
    const name = text(con.conname) ?? `${table}#${t.constraints.size}`;
    if (type === "CONSTR_CHECK") {
      const cols = new Set<string>();
      const read = columnsOf(con.raw_expr, cols);
      t.constraints.set(name, { kind: "check", valid, impliesNotNull: notNullColumns(con.raw_expr), columns: read ? cols : undefined });
    } else if (type === "CONSTR_FOREIGN") t.constraints.set(name, { kind: "foreign", valid, impliesNotNull: [], references: rangeVar(con.pktable) });
    else if (type === "CONSTR_PRIMARY" || type === "CONSTR_UNIQUE") {
      const keys = column !== undefined ? [column] : [...names(con.keys), ...names(con.including)];
      t.constraints.set(name, {
        kind: type === "CONSTR_PRIMARY" ? "primary" : "unique",
        valid: true,
        impliesNotNull: [],
        columns: con.indexname === undefined ? new Set(keys) : undefined,
      });
      if (type === "CONSTR_PRIMARY") for (const k of column ? [column] : names(con.keys)) this.setNotNull(table, k);
    } else t.constraints.set(name, { kind: "other", valid, impliesNotNull: [] });
  }

  setNotNull(table: string, column: string, value = true): void {
    const c = this.table(table)?.columns.get(column);
    if (c) c.notNull = value;
  }

  /** Whether the column is known to hold no NULL: NOT NULL, or a valid CHECK that proves it. */
  provenNotNull(table: string, column: string): "not-null" | "check" | undefined {
    const t = this.table(table);
    if (!t) return undefined;
    if (t.columns.get(column)?.notNull) return "not-null";
    for (const c of t.constraints.values()) if (c.kind === "check" && c.valid && c.impliesNotNull.includes(column)) return "check";
    return undefined;
  }

  renameTable(from: string, to: string): void {
    // The keys and partitions the plan declared follow the name, on a table the plan created or not.
    this.graph.rename(from, to);
    for (const [i, owner] of this.indexes) if (owner === from) this.indexes.set(i, to);
    const t = this.tables.get(from);
    if (!t) return;
    this.tables.delete(from);
    this.tables.set(to, t);
  }

  dropTable(name: string): void {
    this.tables.delete(name);
    for (const [i, owner] of this.indexes) if (owner === name) this.indexes.delete(i);
    this.graph.dropKeysOn(name);
  }
}

/** The collation a column definition names (COLLATE "C" → `C`), or undefined for the type's default. */
export function collationOf(def: Node | undefined): string | undefined {
  const clause = def?.collClause;
  const parts = isNode(clause) ? names(clause.collname) : [];
  return parts.length === 0 ? undefined : parts[parts.length - 1];
}

/**
 * The columns a CHECK expression proves not null: `col IS NOT NULL`, under AND. A comparison
 * such as `col > 0` proves nothing: a CHECK passes when its expression is NULL, and PostgreSQL 15
 * scans on SET NOT NULL after one (the generated lock oracle found it).
 */
export function notNullColumns(expr: unknown): string[] {
  const u = unwrap(expr);
  if (!u) return [];
  const [kind, body] = u;
  if (kind === "NullTest" && body.nulltesttype === "IS_NOT_NULL") {
    const c = columnRef(body.arg);
    return c === undefined ? [] : [c];
  }
  if (kind === "BoolExpr" && body.boolop === "AND_EXPR") return list(body.args).flatMap(notNullColumns);
  return [];
}
