// The relations a statement reaches beyond the one it names, as the plan itself declares them:
// the two sides of every foreign key, each index's columns, partitions and their parents (and
// inheritance children), the tables a view or materialized view reads, the tables with triggers
// or rules. Learnt in plan order from the statements that create them; a relation the plan did not
// create may have any of these, and the rules then say so (related.ts) instead of assuming none.
import { columnRef, list, names, rangeVar, text, unwrap, walk } from "./ast.ts";
import type { Node } from "./parser.ts";

export interface ForeignKey {
  readonly from: string;
  /** The referencing columns; empty when the statement did not name them (read as "any"). */
  readonly columns: readonly string[];
  readonly to: string;
  /** The referenced columns; empty means the referenced table's primary key (read as "any"). */
  readonly refColumns: readonly string[];
  readonly name?: string;
}

export interface IndexInfo {
  readonly table: string;
  /** The columns it reads; `undefined` when an expression or predicate could not be read (read as "every column"). */
  readonly columns: ReadonlySet<string> | undefined;
  /** An expression or a predicate: PostgreSQL rebuilds such an index on any type change of a column it reads. */
  readonly expressions: boolean;
}

const touches = (cols: readonly string[], column: string): boolean => cols.length === 0 || cols.includes(column);

export class Graph {
  private readonly keysFrom = new Map<string, ForeignKey[]>();
  private readonly keysTo = new Map<string, ForeignKey[]>();
  readonly indexInfo = new Map<string, IndexInfo>();
  private readonly children = new Map<string, Set<string>>();
  /** A partitioned table → its DEFAULT partition. */
  readonly defaults = new Map<string, string>();
  /** A view or materialized view → the relations its query reads. */
  readonly reads = new Map<string, string[]>();
  /** The plain views among them: reading one opens what it reads too. */
  readonly views = new Set<string>();
  /** Tables the plan puts a trigger on: a row change fires it, and its function is not read. */
  readonly triggers = new Set<string>();
  /** A table → the locks its rules' actions take when a row change on it is rewritten. */
  readonly rules = new Map<string, { readonly relation: string; readonly mode: "ROW EXCLUSIVE" | "ACCESS SHARE" }[]>();

  /** What reading `relations` opens: through every plain view, what it reads; through every partitioned or parent table, its partitions and children. */
  throughViews(relations: readonly string[]): string[] {
    const out = [...relations];
    for (let i = 0; i < out.length; i++) {
      const more = [...(this.views.has(out[i]!) ? (this.reads.get(out[i]!) ?? []) : []), ...(this.children.get(out[i]!) ?? [])];
      for (const r of more) if (!out.includes(r)) out.push(r);
    }
    return out;
  }

  addForeignKey(fk: ForeignKey): void {
    this.keysFrom.set(fk.from, [...(this.keysFrom.get(fk.from) ?? []), fk]);
    this.keysTo.set(fk.to, [...(this.keysTo.get(fk.to) ?? []), fk]);
  }

  /** The foreign keys of `table` whose referencing columns include `column` (every one when `column` is undefined). */
  keysOn(table: string, column?: string): ForeignKey[] {
    return (this.keysFrom.get(table) ?? []).filter((k) => column === undefined || touches(k.columns, column));
  }

  /** The foreign keys of other tables that reference `table` (its `column` when given). */
  keysReferencing(table: string, column?: string): ForeignKey[] {
    return (this.keysTo.get(table) ?? []).filter((k) => column === undefined || touches(k.refColumns, column));
  }

  dropForeignKey(table: string, name: string): void {
    const gone = (this.keysFrom.get(table) ?? []).filter((k) => k.name === name);
    if (gone.length === 0) return;
    this.keysFrom.set(
      table,
      (this.keysFrom.get(table) ?? []).filter((k) => !gone.includes(k)),
    );
    for (const k of gone)
      this.keysTo.set(
        k.to,
        (this.keysTo.get(k.to) ?? []).filter((o) => o !== k),
      );
  }

  /** The keys of a dropped column or table go with it. */
  dropKeysOn(table: string, column?: string): void {
    const gone = new Set(this.keysOn(table, column));
    if (gone.size === 0) return;
    this.keysFrom.set(
      table,
      (this.keysFrom.get(table) ?? []).filter((k) => !gone.has(k)),
    );
    for (const k of gone)
      this.keysTo.set(
        k.to,
        (this.keysTo.get(k.to) ?? []).filter((o) => o !== k),
      );
  }

  addIndex(index: string, table: string, body: Node): void {
    const expressions = body.whereClause !== undefined || list(body.indexParams).some((p) => unwrap(p)?.[1].expr !== undefined);
    this.indexInfo.set(index, { table, columns: indexColumns(body), expressions });
  }

  /** The plan's indexes on `table` that read `column`. */
  indexesOn(table: string, column: string): IndexInfo[] {
    const out: IndexInfo[] = [];
    for (const i of this.indexInfo.values()) if (i.table === table && (i.columns === undefined || i.columns.has(column))) out.push(i);
    return out;
  }

  addChild(parent: string, child: string): void {
    this.children.set(parent, (this.children.get(parent) ?? new Set()).add(child));
  }

  removeChild(parent: string, child: string): void {
    this.children.get(parent)?.delete(child);
    if (this.defaults.get(parent) === child) this.defaults.delete(parent);
  }

  /** Every partition and inheritance child below `table`, depth-first (a cycle is cut). */
  descendants(table: string): string[] {
    const out: string[] = [];
    const stack = [...(this.children.get(table) ?? [])];
    while (stack.length > 0) {
      const t = stack.pop()!;
      if (t === table || out.includes(t)) continue;
      out.push(t);
      stack.push(...(this.children.get(t) ?? []));
    }
    return out;
  }

  rename(from: string, to: string): void {
    const move = <V>(m: Map<string, V>) => {
      const v = m.get(from);
      if (v === undefined) return;
      m.delete(from);
      m.set(to, v);
    };
    const fix = (k: ForeignKey): ForeignKey => ({ ...k, from: k.from === from ? to : k.from, to: k.to === from ? to : k.to });
    for (const m of [this.keysFrom, this.keysTo]) for (const [t, ks] of m) m.set(t, ks.map(fix));
    move(this.keysFrom);
    move(this.keysTo);
    move(this.children);
    move(this.rules);
    if (this.triggers.delete(from)) this.triggers.add(to);
    for (const set of this.children.values()) if (set.delete(from)) set.add(to);
    for (const [i, info] of this.indexInfo) if (info.table === from) this.indexInfo.set(i, { ...info, table: to });
  }
}

/** The columns an index's key, expressions and predicate read; undefined when none could be read. */
function indexColumns(body: Node): Set<string> | undefined {
  const cols = new Set<string>();
  let unread = false;
  for (const p of list(body.indexParams)) {
    const e = unwrap(p);
    if (e?.[0] !== "IndexElem") continue;
    const name = text(e[1].name);
    if (name !== undefined) cols.add(name);
    else if (e[1].expr !== undefined && !columnsOf(e[1].expr, cols)) unread = true;
  }
  for (const p of list(body.indexIncludingParams)) {
    const e = unwrap(p);
    if (e?.[0] === "IndexElem" && text(e[1].name) !== undefined) cols.add(text(e[1].name)!);
  }
  if (body.whereClause !== undefined) columnsOf(body.whereClause, cols);
  return unread ? undefined : cols;
}

/** Adds the bare column names an expression reads; false when it reads a whole row. */
export function columnsOf(expr: unknown, into: Set<string>): boolean {
  let whole = false;
  walk(expr, (kind, body) => {
    if (kind !== "ColumnRef") return;
    const c = columnRef({ ColumnRef: body });
    if (c !== undefined) into.add(c);
    else {
      const f = names(body.fields);
      if (f.length > 0) into.add(f[f.length - 1]!);
      else whole = true;
    }
  });
  return !whole;
}

/** The relations a query reads (its RangeVars that are not its own CTEs). */
export function readsOf(query: unknown): string[] {
  const ctes = new Set<string>();
  walk(query, (kind, node) => {
    if (kind === "CommonTableExpr" && typeof node.ctename === "string") ctes.add(node.ctename);
  });
  const out: string[] = [];
  walk(query, (kind, node) => {
    if (kind !== "RangeVar") return;
    if (node.schemaname === undefined && typeof node.relname === "string" && ctes.has(node.relname)) return;
    const r = rangeVar(node);
    if (r !== undefined && !out.includes(r)) out.push(r);
  });
  return out;
}

/** The foreign key a Constraint node declares on `table` (`column` for one written on a column), if it is one. */
export function foreignKeyOf(table: string, con: Node, column?: string): ForeignKey | undefined {
  if (text(con.contype) !== "CONSTR_FOREIGN") return undefined;
  const to = rangeVar(con.pktable);
  if (to === undefined) return undefined;
  const columns = column !== undefined ? [column] : names(con.fk_attrs);
  // Unnamed, PostgreSQL names it <table>_<columns>_fkey (a later DROP CONSTRAINT uses that name).
  const bare = /(?:^|\.)"?([^".]+)"?$/u.exec(table)?.[1];
  const name = text(con.conname) ?? (bare !== undefined && columns.length > 0 ? `${bare}_${columns.join("_")}_fkey` : undefined);
  return { from: table, columns, to, refColumns: names(con.pk_attrs), ...(name !== undefined ? { name } : {}) };
}
