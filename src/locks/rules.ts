// One statement's locks, by kind. ALTER TABLE has its own module (alter.ts); everything here is
// the rest of what a schema plan writes. A kind not named here is reported as not analysed.
import { alterTable, type Verdict } from "./alter.ts";
import { dotted, isOnly, list, names, qualified, rangeVar, text, unwrap } from "./ast.ts";
import { isNode } from "./parser.ts";
import { finding } from "./findings.ts";
import { foreignKeyOf, readsOf } from "./graph.ts";
import { dropOnTable, moreLocks, selectInto } from "./more-rules.ts";
import { createChild } from "./partition.ts";
import { copy, query, rowChange } from "./row-changes.ts";
import type { Known, TableSource } from "./known.ts";
import type { Node } from "./parser.ts";
import { LOCK_MODES, type LockMode, type RelationLock, type TransactionMode } from "./lock-types.ts";

const AE: LockMode = "ACCESS EXCLUSIVE";
const SUE: LockMode = "SHARE UPDATE EXCLUSIVE";
const none = (): Verdict => ({ locks: [], holds: "catalog-only", findings: [] });
const skip = (why: string): Verdict => ({ locks: [], holds: "catalog-only", findings: [], notAnalysed: why });
const on = (relation: string | undefined, mode: LockMode, holds: Verdict["holds"] = "catalog-only"): Verdict =>
  relation === undefined ? skip("the statement names no relation the analyser could read") : { locks: [{ relation, mode }], holds, findings: [] };

const RELATION_OBJECTS: Record<string, string> = {
  OBJECT_TABLE: "table",
  OBJECT_VIEW: "view",
  OBJECT_MATVIEW: "materialized view",
  OBJECT_SEQUENCE: "sequence",
  OBJECT_INDEX: "index",
  OBJECT_FOREIGN_TABLE: "foreign table",
};

// Statements that touch no table: their own catalog rows only.
const CATALOG_ONLY = new Set([
  "CreateSchemaStmt",
  "CreateSeqStmt",
  "CreateFunctionStmt",
  "DefineStmt",
  "CreateEnumStmt",
  "CreateDomainStmt",
  "CompositeTypeStmt",
  "AlterEnumStmt",
  "CreateRoleStmt",
  "VariableSetStmt",
]);

/**
 * Why names after this SET search_path cannot be resolved, or undefined when public still comes
 * first ("$user" aside: under the default path the analyser assumes public as well).
 */
function searchPathMoved(body: Node): string | undefined {
  const kind = text(body.kind);
  if (kind === "VAR_RESET" || kind === "VAR_SET_DEFAULT") return undefined;
  const path = list(body.args).map((a) => text((unwrap(a)?.[1].sval as Node | undefined)?.sval));
  const first = path.find((p) => p !== "$user");
  if (kind === "VAR_SET_VALUE" && first === "public") return undefined;
  const written = path.every((p) => p !== undefined) && path.length > 0 ? path.join(", ") : "a value the analyser cannot read";
  return `after SET search_path = ${written}, an unqualified name may be in another schema than public, where the analyser resolves it`;
}

/** `source` reads this statement's tree again (a created table's columns are learnt when first asked). */
export function statementLocks(kind: string, body: Node, known: Known, mode: TransactionMode, source?: TableSource): Verdict {
  if (kind === "VariableSetStmt" && text(body.name) === "search_path") {
    known.namesElsewhere = searchPathMoved(body);
    return none();
  }
  if (CATALOG_ONLY.has(kind)) return none();
  if (known.namesElsewhere !== undefined) return skip(known.namesElsewhere);
  const more = moreLocks(kind, body, known, mode) ?? rowChange(kind, body, known);
  if (more !== undefined) return more;
  switch (kind) {
    case "CreateStmt":
      return createTable(body, known, source);
    case "AlterTableStmt": {
      const objtype = text(body.objtype);
      if (objtype === "OBJECT_INDEX") return alterIndex(body);
      if (objtype !== undefined && RELATION_OBJECTS[objtype] !== undefined && objtype !== "OBJECT_SEQUENCE") return alterTable(body, known, mode);
      return skip(`ALTER ${RELATION_OBJECTS[objtype ?? ""]?.toUpperCase() ?? objtype ?? "?"} is not in the analyser's rules`);
    }
    case "SelectStmt":
      // SELECT INTO creates its table; any other query reads (ACCESS SHARE), or locks rows it reads
      // (FOR UPDATE/SHARE: ROW SHARE); both beside what their WITH changes.
      return selectInto(body, known) ?? query(body, known);
    case "CopyStmt":
      return copy(body, known);
    case "IndexStmt":
      return createIndex(body, known, mode);
    case "DropStmt":
      return drop(body, known, mode);
    case "TruncateStmt": {
      const locks = list(body.relations).map((r) => ({ relation: rangeVar(unwrap(r)?.[1]) ?? "?", mode: AE }));
      for (const l of [...locks]) locks.push(...known.graph.descendants(l.relation).map((relation) => ({ relation, mode: AE })));
      return { locks, holds: "rewrite", findings: [] };
    }
    case "RenameStmt":
      return rename(body, known);
    case "AlterObjectSchemaStmt":
      return RELATION_OBJECTS[text(body.objectType) ?? ""] === "table"
        ? on(rangeVar(body.relation), AE)
        : skip(`SET SCHEMA of ${text(body.objectType) ?? "?"} is not in the analyser's rules`);
    case "ViewStmt":
      return createView(body, known);
    case "CommentStmt":
      return comment(body);
    case "LockStmt": {
      const m = LOCK_MODES[(typeof body.mode === "number" ? body.mode : 0) - 1];
      if (m === undefined) return skip("LOCK with an unknown mode");
      const locks = list(body.relations).map((r) => ({ relation: rangeVar(unwrap(r)?.[1]) ?? "?", mode: m }));
      // LOCK (not ONLY) takes every partition and child in the same mode.
      for (const l of [...locks]) locks.push(...known.graph.descendants(l.relation).map((relation) => ({ relation, mode: m })));
      return { locks, holds: "catalog-only", findings: [] };
    }
    case "AlterSeqStmt":
      return on(rangeVar(body.sequence), "SHARE ROW EXCLUSIVE");
    case "ReindexStmt":
      return reindex(body, mode);
    case "ClusterStmt":
      return rangeVar(body.relation) === undefined ? skip("CLUSTER of every clustered table") : on(rangeVar(body.relation), AE, "rewrite");
    case "TransactionStmt":
      return skip("a transaction control statement inside a plan");
    default:
      return skip(`${kind.replace(/Stmt$/u, "")} statements are not in the analyser's rules`);
  }
}

function createTable(body: Node, known: Known, source?: TableSource): Verdict {
  const table = rangeVar(body.relation);
  if (table === undefined) return skip("CREATE TABLE without a name");
  const child = createChild(table, body, known);
  const locks: RelationLock[] = child.locks;
  // A foreign key to another table takes SHARE ROW EXCLUSIVE on it (its triggers are added
  // there), written on a column or as a table constraint; LIKE reads the table it copies. The
  // grammar puts nothing else in a table's elements, so they are read directly, not walked.
  const foreignKey = (con: unknown, column?: string): void => {
    const u = unwrap(con);
    if (u?.[0] !== "Constraint" || u[1].contype !== "CONSTR_FOREIGN") return;
    const key = foreignKeyOf(table, u[1], column);
    if (key) known.graph.addForeignKey(key);
    const ref = rangeVar(u[1].pktable);
    if (ref !== undefined && ref !== table) locks.push({ relation: ref, mode: "SHARE ROW EXCLUSIVE" });
  };
  for (const elt of list(body.tableElts)) {
    const u = unwrap(elt);
    if (u?.[0] === "ColumnDef") for (const c of list(u[1].constraints)) foreignKey(c, text(u[1].colname));
    else if (u?.[0] === "Constraint") foreignKey(elt);
    else if (u?.[0] === "TableLikeClause") {
      const like = rangeVar(u[1].relation);
      if (like !== undefined) locks.push({ relation: like, mode: "ACCESS SHARE" });
    } else return skip(`CREATE TABLE with a ${u?.[0] ?? "malformed"} element is not in the analyser's rules`);
  }
  known.createTable(table, body, source);
  return { locks, holds: child.holds, findings: child.findings };
}

/** `name` in the schema of the RangeVar `rv` (an index beside its table, a table's new name). */
const sibling = (rv: unknown, name: string): string => qualified(isNode(rv) ? text(rv.schemaname) : undefined, name);

function createIndex(body: Node, known: Known, mode: TransactionMode): Verdict {
  const table = rangeVar(body.relation);
  if (table === undefined) return skip("CREATE INDEX without a table");
  const index = text(body.idxname);
  // An index lives in its table's schema.
  if (index !== undefined) {
    known.indexes.set(sibling(body.relation, index), table);
    known.graph.addIndex(sibling(body.relation, index), table, body);
  } else known.graph.addIndex(`${table}#${known.graph.indexInfo.size}`, table, body);
  // On a partitioned table (not ONLY) each partition's index is built too; with ONLY, PostgreSQL
  // locks no partition.
  const below = isOnly(body.relation) ? [] : known.graph.descendants(table);
  if (body.concurrent === true) {
    return { locks: [{ relation: table, mode: SUE }], holds: "build", findings: mode === "none" ? [] : [finding.concurrentlyInTransaction(mode)] };
  }
  const locks = [table, ...below].map((relation) => ({ relation, mode: "SHARE" as LockMode }));
  return { locks, holds: "build", findings: known.has(table) ? [] : [finding.indexNotConcurrent(table)] };
}

function drop(body: Node, known: Known, mode: TransactionMode): Verdict {
  const type = text(body.removeType) ?? "";
  const what = RELATION_OBJECTS[type];
  if (body.behavior === "DROP_CASCADE" && what !== undefined) return skip(`DROP ${what.toUpperCase()} … CASCADE: what depends on it is not in the plan`);
  if (type === "OBJECT_SCHEMA") return body.behavior === "DROP_CASCADE" ? skip("DROP SCHEMA … CASCADE: the relations in it are not in the plan") : none();
  if (["OBJECT_FUNCTION", "OBJECT_TYPE", "OBJECT_DOMAIN", "OBJECT_SEQUENCE", "OBJECT_STATISTIC_EXT"].includes(type) && what === undefined) return none();
  if (["OBJECT_TRIGGER", "OBJECT_RULE", "OBJECT_POLICY"].includes(type)) return dropOnTable(body);
  if (what === undefined) return skip(`DROP ${type.replace(/^OBJECT_/u, "")} is not in the analyser's rules`);
  const locks: RelationLock[] = [];
  const findings: Verdict["findings"] = [];
  for (const obj of list(body.objects)) {
    const u = unwrap(obj);
    const name = u?.[0] === "List" ? dotted(names(u[1].items)) : undefined;
    if (name === undefined) return skip(`DROP ${what.toUpperCase()} of a name the analyser could not read`);
    if (type === "OBJECT_INDEX") {
      const m = body.concurrent === true ? SUE : AE;
      const table = known.tableOfIndex(name);
      locks.push({ relation: name, mode: m });
      // An index of a partitioned table takes its partitions' indexes, and their tables, with it.
      if (table !== undefined) for (const t of [table, ...known.graph.descendants(table)]) locks.push({ relation: t, mode: m });
      if (body.concurrent === true && mode !== "none") findings.push(finding.concurrentlyInTransaction(mode));
      if (body.concurrent !== true) findings.push(finding.dropIndexNotConcurrent(name));
      continue;
    }
    locks.push({ relation: name, mode: AE });
    if (type === "OBJECT_TABLE") {
      // Its foreign keys' triggers on the tables they reference go with it.
      for (const c of known.table(name)?.constraints.values() ?? [])
        if (c.kind === "foreign" && c.references !== undefined && c.references !== name) locks.push({ relation: c.references, mode: AE });
      for (const k of known.graph.keysOn(name)) if (k.to !== name) locks.push({ relation: k.to, mode: AE });
      // Its partitions and children go with it (a child of a table that is not partitioned stops the DROP).
      for (const d of known.graph.descendants(name)) locks.push({ relation: d, mode: AE });
      known.dropTable(name);
    }
  }
  return { locks, holds: "catalog-only", findings };
}

function rename(body: Node, known: Known): Verdict {
  const type = text(body.renameType) ?? "";
  const relation = rangeVar(body.relation);
  switch (type) {
    case "OBJECT_TABLE":
    case "OBJECT_VIEW":
    case "OBJECT_MATVIEW":
    case "OBJECT_SEQUENCE":
    case "OBJECT_FOREIGN_TABLE": {
      const v = on(relation, AE);
      const to = text(body.newname);
      if (relation !== undefined && to !== undefined && type === "OBJECT_TABLE") known.renameTable(relation, sibling(body.relation, to));
      return v;
    }
    case "OBJECT_INDEX":
      return on(relation, SUE);
    case "OBJECT_COLUMN":
    case "OBJECT_TABCONSTRAINT":
    case "OBJECT_TRIGGER":
      return on(relation, AE);
    case "OBJECT_SCHEMA":
      return none();
    default:
      return skip(`RENAME of ${type.replace(/^OBJECT_/u, "") || "?"} is not in the analyser's rules`);
  }
}

/** ALTER INDEX: SET/RESET of storage parameters and SET STATISTICS under SHARE UPDATE EXCLUSIVE; SET TABLESPACE copies it. */
function alterIndex(body: Node): Verdict {
  const index = rangeVar(body.relation);
  if (index === undefined) return skip("ALTER INDEX without a name the analyser could read");
  const types = list(body.cmds).map((c) => text(unwrap(c)?.[1].subtype) ?? "");
  // PostgreSQL locks the index alone (its table is not opened).
  const withTable = (mode: LockMode, holds: Verdict["holds"]): Verdict => ({ locks: [{ relation: index, mode }], holds, findings: [] });
  if (types.every((t) => ["AT_SetRelOptions", "AT_ResetRelOptions", "AT_SetStatistics"].includes(t))) return withTable(SUE, "catalog-only");
  if (types.every((t) => t === "AT_SetTableSpace")) return withTable(AE, "build");
  return skip(`ALTER INDEX ${types.map((t) => t.replace(/^AT_/u, "")).join(", ")} is not in the analyser's rules`);
}

function createView(body: Node, known: Known): Verdict {
  const view = rangeVar(body.view);
  // Reading the query opens each relation it names (ACCESS SHARE), through the views it reads;
  // replacing a view locks the old one.
  const reads = readsOf(body.query);
  if (view !== undefined) {
    known.graph.reads.set(view, reads);
    known.graph.views.add(view);
  }
  const locks: RelationLock[] = known.graph.throughViews(reads).map((relation) => ({ relation, mode: "ACCESS SHARE" }));
  if (body.replace === true && view !== undefined) locks.push({ relation: view, mode: AE });
  return { locks, holds: "catalog-only", findings: [] };
}

function comment(body: Node): Verdict {
  const type = text(body.objtype) ?? "";
  const u = unwrap(body.object);
  const parts = u?.[0] === "List" ? names(u[1].items) : [];
  if (RELATION_OBJECTS[type] !== undefined) return on(dotted(parts), SUE);
  if (type === "OBJECT_COLUMN") return on(dotted(parts.slice(0, -1)), SUE);
  // A constraint's comment only looks its table up.
  if (type === "OBJECT_TABCONSTRAINT") return on(dotted(parts.slice(0, -1)), "ACCESS SHARE");
  if (["OBJECT_SCHEMA", "OBJECT_FUNCTION", "OBJECT_TYPE", "OBJECT_DOMAIN", "OBJECT_EXTENSION"].includes(type)) return none();
  return skip(`COMMENT ON ${type.replace(/^OBJECT_/u, "")} is not in the analyser's rules`);
}

function reindex(body: Node, mode: TransactionMode): Verdict {
  const concurrent = list(body.params).some((p) => unwrap(p)?.[1].defname === "concurrently");
  const relation = rangeVar(body.relation);
  const kind = text(body.kind);
  if (kind !== "REINDEX_OBJECT_TABLE" && kind !== "REINDEX_OBJECT_INDEX") return skip("REINDEX of a schema or database is not in the analyser's rules");
  const m: LockMode = concurrent ? SUE : kind === "REINDEX_OBJECT_INDEX" ? AE : "SHARE";
  const v = on(relation, m, "build");
  if (concurrent && mode !== "none") v.findings.push(finding.concurrentlyInTransaction(mode));
  return v;
}
