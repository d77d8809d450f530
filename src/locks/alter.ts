// ALTER TABLE: one lock for the whole command, the strongest its subcommands ask for (PostgreSQL
// takes one lock level per ALTER TABLE), plus the tables foreign keys reach; the work under it is
// the longest of the subcommands'. Each subcommand's level and work are what PostgreSQL 15 does,
// as the lock-trace oracle measures it (test/e2e/lock-trace.e2e.test.ts).
import { list, names, rangeVar, SERIAL, text, typeRef, unwrap, volatile } from "./ast.ts";
import { alterType } from "./column-type.ts";
import { finding } from "./findings.ts";
import { foreignKeyOf } from "./graph.ts";
import type { Known } from "./known.ts";
import type { Node } from "./parser.ts";
import { partitionCommand } from "./partition.ts";
import { descendantLocks, dropColumnReach, droppedForeignKey } from "./related.ts";
import { longer, stronger, type Finding, type Holds, type LockMode, type RelationLock, type TransactionMode } from "./lock-types.ts";

export interface Verdict {
  locks: RelationLock[];
  holds: Holds;
  findings: Finding[];
  notAnalysed?: string;
}

interface Part {
  mode: LockMode;
  holds: Holds;
  other?: RelationLock[];
  findings?: Finding[];
  notAnalysed?: string;
}

const SUE: LockMode = "SHARE UPDATE EXCLUSIVE";
const AE: LockMode = "ACCESS EXCLUSIVE";

// Storage parameters PostgreSQL changes under SHARE UPDATE EXCLUSIVE; any other under ACCESS EXCLUSIVE.
const LIGHT_OPTIONS =
  /^(fillfactor|parallel_workers|autovacuum_.*|toast\.autovacuum_.*|vacuum_index_cleanup|toast\.vacuum_index_cleanup|vacuum_truncate|toast\.vacuum_truncate|log_autovacuum_min_duration|toast\.log_autovacuum_min_duration|toast_tuple_target)$/u;

export function alterTable(body: Node, known: Known, txn: TransactionMode = "all"): Verdict {
  const table = rangeVar(body.relation);
  if (table === undefined) return { locks: [], holds: "catalog-only", findings: [], notAnalysed: "ALTER TABLE without a table name" };
  const parts: Part[] = [];
  for (const cmd of list(body.cmds)) {
    const u = unwrap(cmd);
    parts.push(u?.[0] === "AlterTableCmd" ? subcommand(table, u[1], known, txn) : { mode: AE, holds: "catalog-only", notAnalysed: "an ALTER TABLE part of an unknown shape" });
  }
  const missing = parts.find((p) => p.notAnalysed !== undefined);
  if (missing) return { locks: [], holds: "catalog-only", findings: [], notAnalysed: missing.notAnalysed };
  let mode: LockMode = "ACCESS SHARE";
  let holds: Holds = "catalog-only";
  const locks: RelationLock[] = [];
  const findings: Finding[] = [];
  for (const p of parts) {
    mode = stronger(mode, p.mode);
    holds = longer(holds, p.holds);
    locks.push(...(p.other ?? []));
    findings.push(...(p.findings ?? []));
  }
  locks.push({ relation: table, mode });
  // ALTER TABLE recurses to the partitions and children; ATTACH and DETACH name theirs. ONLY is not
  // read: some subcommands open the children without recursing (DROP COLUMN ONLY on an inheritance
  // parent takes each child ACCESS EXCLUSIVE to mark its column local), so it is said as recursing.
  const own = list(body.cmds).every((c) => ["AT_AttachPartition", "AT_DetachPartition", "AT_DetachPartitionFinalize"].includes(text(unwrap(c)?.[1].subtype) ?? ""));
  locks.push(...descendantLocks(table, mode, !own, known).locks);
  for (const cmd of list(body.cmds)) learn(table, unwrap(cmd)?.[1], known);
  return { locks, holds, findings };
}

function subcommand(table: string, cmd: Node, known: Known, txn: TransactionMode): Part {
  const type = text(cmd.subtype) ?? "";
  const column = text(cmd.name);
  switch (type) {
    case "AT_AddColumn":
      return addColumn(table, unwrap(cmd.def)?.[1]);
    case "AT_DropColumn": {
      const reach = column === undefined ? undefined : dropColumnReach(table, column, known);
      return { mode: AE, holds: "catalog-only", other: reach?.locks, findings: reach?.findings };
    }
    case "AT_AttachPartition":
    case "AT_DetachPartition":
      return partitionCommand(table, type === "AT_AttachPartition", unwrap(cmd.def)?.[1], known, txn);
    case "AT_ColumnDefault":
    case "AT_DropNotNull":
    case "AT_AddIdentity":
    case "AT_SetIdentity":
    case "AT_DropIdentity":
    case "AT_ChangeOwner":
    case "AT_ReplicaIdentity":
    case "AT_EnableRowSecurity":
    case "AT_DisableRowSecurity":
    case "AT_ForceRowSecurity":
    case "AT_NoForceRowSecurity":
    case "AT_SetStorage":
    case "AT_SetCompression":
    case "AT_DropExpression":
    case "AT_DropConstraint":
      return { mode: AE, holds: "catalog-only", other: type === "AT_DropConstraint" ? droppedForeignKey(table, text(cmd.name), known) : undefined };
    case "AT_SetStatistics":
    case "AT_SetOptions":
    case "AT_ResetOptions":
    case "AT_ClusterOn":
    case "AT_DropCluster":
      return { mode: SUE, holds: "catalog-only" };
    case "AT_SetRelOptions":
    case "AT_ResetRelOptions": {
      const options = unwrap(cmd.def)?.[0] === "List" ? list(unwrap(cmd.def)![1].items) : list(cmd.def);
      const all = options.every((d) => {
        const u = unwrap(d);
        const name = u?.[0] === "DefElem" ? [text(u[1].defnamespace), text(u[1].defname)].filter(Boolean).join(".") : "";
        return LIGHT_OPTIONS.test(name);
      });
      return { mode: all ? SUE : AE, holds: "catalog-only" };
    }
    case "AT_EnableTrig":
    case "AT_EnableAlwaysTrig":
    case "AT_EnableReplicaTrig":
    case "AT_DisableTrig":
    case "AT_EnableTrigAll":
    case "AT_DisableTrigAll":
    case "AT_EnableTrigUser":
    case "AT_DisableTrigUser":
      return { mode: "SHARE ROW EXCLUSIVE", holds: "catalog-only" };
    case "AT_SetNotNull": {
      if (column === undefined) return { mode: AE, holds: "scan" };
      const proven = known.provenNotNull(table, column);
      return proven ? { mode: AE, holds: "catalog-only" } : { mode: AE, holds: "scan", findings: [finding.setNotNullScan(table, column)] };
    }
    case "AT_AlterColumnType":
      return alterType(table, column, unwrap(cmd.def)?.[1], known);
    case "AT_AddConstraint":
      return addConstraint(table, unwrap(cmd.def)?.[1], known);
    case "AT_ValidateConstraint": {
      const c = column === undefined ? undefined : known.table(table)?.constraints.get(column);
      // Validating a constraint the plan made valid already is a no-op.
      if (c?.valid) return { mode: SUE, holds: "catalog-only" };
      const other = c?.kind === "foreign" && c.references !== undefined && c.references !== table ? [{ relation: c.references, mode: "ROW SHARE" as LockMode }] : [];
      return { mode: SUE, holds: "scan", other };
    }
    case "AT_SetLogged":
    case "AT_SetUnLogged":
    case "AT_SetTableSpace":
    case "AT_SetAccessMethod": {
      const what = type.slice(3).replace(/([a-z])([A-Z])/gu, "$1 $2").toUpperCase(); // prettier-ignore
      // The table's tablespace is not in the plan: moving it where it is already changes nothing.
      const condition = type === "AT_SetTableSpace" ? ` (unless it is in tablespace ${text(cmd.name) ?? "?"} already, when nothing is copied)` : "";
      return { mode: AE, holds: "rewrite", findings: [finding.tableRewrite(table, `${what}${condition}`)] };
    }
    default:
      return { mode: AE, holds: "catalog-only", notAnalysed: `ALTER TABLE subcommand ${type.replace(/^AT_/u, "") || "(unnamed)"} is not in the analyser's rules` };
  }
}

function addColumn(table: string, def: Node | undefined): Part {
  if (!def) return { mode: AE, holds: "catalog-only", notAnalysed: "ADD COLUMN without a column definition" };
  const column = text(def.colname) ?? "?";
  const type = typeRef(def.typeName);
  let holds: Holds = "catalog-only";
  const findings: Finding[] = [];
  const other: RelationLock[] = [];
  let notNull = false;
  let hasDefault = type !== undefined && SERIAL.has(type.name);
  let volatileDefault = hasDefault;
  let references: string | undefined;
  for (const c of list(def.constraints)) {
    const u = unwrap(c);
    if (u?.[0] !== "Constraint") continue;
    const con = u[1];
    switch (text(con.contype)) {
      case "CONSTR_NOTNULL":
        notNull = true;
        break;
      case "CONSTR_DEFAULT":
        hasDefault = true;
        if (volatile(con.raw_expr)) volatileDefault = true;
        break;
      case "CONSTR_GENERATED":
      case "CONSTR_IDENTITY":
        hasDefault = true;
        volatileDefault = true;
        break;
      case "CONSTR_CHECK":
        holds = longer(holds, con.skip_validation === true ? "catalog-only" : "scan");
        break;
      case "CONSTR_PRIMARY":
        notNull = true;
        holds = longer(holds, "build");
        findings.push(finding.constraintBuildsIndex(table));
        break;
      case "CONSTR_UNIQUE":
        holds = longer(holds, "build");
        findings.push(finding.constraintBuildsIndex(table));
        break;
      case "CONSTR_FOREIGN": {
        // A new column without a default holds no value yet, so there is nothing to check; with
        // one, every row is checked against the referenced table.
        const ref = rangeVar(con.pktable);
        if (ref !== undefined && ref !== table) other.push({ relation: ref, mode: "SHARE ROW EXCLUSIVE" });
        references = ref ?? "the referenced table";
        break;
      }
      default:
        break;
    }
  }
  if (references !== undefined && hasDefault) {
    holds = longer(holds, "scan");
    findings.push(finding.foreignKeyValidates(table, references));
  }
  if (volatileDefault) {
    holds = "rewrite";
    findings.push(finding.volatileDefaultRewrite(table, column));
  } else if (notNull && !hasDefault) {
    holds = longer(holds, "scan");
    findings.push(finding.notNullWithoutDefault(table, column));
  }
  return { mode: AE, holds, other, findings };
}

function addConstraint(table: string, con: Node | undefined, known: Known): Part {
  if (!con) return { mode: AE, holds: "catalog-only", notAnalysed: "ADD CONSTRAINT without a definition" };
  const notValid = con.skip_validation === true;
  switch (text(con.contype)) {
    case "CONSTR_FOREIGN": {
      const ref = rangeVar(con.pktable);
      const other: RelationLock[] = ref !== undefined && ref !== table ? [{ relation: ref, mode: "SHARE ROW EXCLUSIVE" }] : [];
      return notValid
        ? { mode: "SHARE ROW EXCLUSIVE", holds: "catalog-only", other }
        : { mode: "SHARE ROW EXCLUSIVE", holds: "scan", other, findings: [finding.foreignKeyValidates(table, ref ?? "the referenced table")] };
    }
    case "CONSTR_CHECK":
      return notValid ? { mode: AE, holds: "catalog-only" } : { mode: AE, holds: "scan", findings: [finding.checkValidates(table)] };
    case "CONSTR_PRIMARY":
    case "CONSTR_UNIQUE": {
      const index = text(con.indexname);
      if (index !== undefined) {
        // USING INDEX: the index exists; a primary key still proves its columns not null.
        const cols = names(con.keys);
        const unproven = text(con.contype) === "CONSTR_PRIMARY" && !(cols.length > 0 && cols.every((c) => known.provenNotNull(table, c)));
        return { mode: AE, holds: unproven ? "scan" : "catalog-only" };
      }
      return { mode: AE, holds: "build", findings: [finding.constraintBuildsIndex(table)] };
    }
    case "CONSTR_EXCLUSION":
      return { mode: AE, holds: "build", findings: [finding.constraintBuildsIndex(table)] };
    default:
      return { mode: AE, holds: "catalog-only", notAnalysed: `ADD CONSTRAINT of kind ${text(con.contype) ?? "?"} is not in the analyser's rules` };
  }
}

/** After the command: what it taught about the table (columns, constraints, NOT NULL). */
function learn(table: string, cmd: Node | undefined, known: Known): void {
  const def = unwrap(cmd?.def)?.[1];
  // The foreign keys are learnt on every table, known or not: a key to a table the plan created.
  if (def && cmd?.subtype === "AT_AddConstraint") keys(table, def, undefined, known);
  if (def && cmd?.subtype === "AT_AddColumn") for (const c of list(def.constraints)) keys(table, unwrap(c)?.[1], text(def.colname), known);
  if (cmd?.subtype === "AT_DropConstraint" && text(cmd.name) !== undefined) known.graph.dropForeignKey(table, text(cmd.name)!);
  if (cmd?.subtype === "AT_DropColumn" && text(cmd.name) !== undefined) known.graph.dropKeysOn(table, text(cmd.name));
  if (!cmd || !known.table(table)) return;
  switch (text(cmd.subtype)) {
    case "AT_AddColumn":
      if (def) known.addColumn(table, def);
      break;
    case "AT_AddConstraint":
      if (def) known.addConstraint(table, def);
      break;
    case "AT_SetNotNull":
    case "AT_DropNotNull":
      if (text(cmd.name) !== undefined) known.setNotNull(table, text(cmd.name)!, cmd.subtype === "AT_SetNotNull");
      break;
    case "AT_ValidateConstraint": {
      const c = known.table(table)?.constraints.get(text(cmd.name) ?? "");
      if (c) c.valid = true;
      break;
    }
    case "AT_DropConstraint":
      known.table(table)?.constraints.delete(text(cmd.name) ?? "");
      break;
    case "AT_DropColumn":
      known.table(table)?.columns.delete(text(cmd.name) ?? "");
      break;
    case "AT_AlterColumnType": {
      const c = known.table(table)?.columns.get(text(cmd.name) ?? "");
      if (c && def) c.type = typeRef(def.typeName);
      break;
    }
    default:
      break;
  }
}

function keys(table: string, con: Node | undefined, column: string | undefined, known: Known): void {
  const k = con && foreignKeyOf(table, con, column);
  if (k) known.graph.addForeignKey(k);
}
