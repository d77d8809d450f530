// ALTER COLUMN … TYPE: PostgreSQL rewrites the table unless the new type is the same, a widening
// it checks without reading a row (varchar(n) to a longer or unbounded varchar or text, numeric's
// precision at the same scale, …) or binary-coercible (cidr to inet). It needs the column's
// current type, which only a plan that created the column says; otherwise the worst case.
import { columnRef, typeRef, unwrap, type TypeRef } from "./ast.ts";
import { finding } from "./findings.ts";
import { collationOf, type Known } from "./known.ts";
import type { Node } from "./parser.ts";
import { typeChangeReach } from "./related.ts";
import { longer, type Finding, type Holds, type LockMode, type RelationLock } from "./lock-types.ts";

interface Part {
  mode: LockMode;
  holds: Holds;
  findings?: Finding[];
  other?: RelationLock[];
}

const AE: LockMode = "ACCESS EXCLUSIVE";

export function alterType(table: string, column: string | undefined, def: Node | undefined, known: Known): Part {
  const target = typeRef(def?.typeName);
  const col = column ?? "?";
  if (!target) return { mode: AE, holds: "rewrite", findings: [finding.typeChangeRewrite(table, col, "the new type could not be read")] };
  const using = def?.raw_default;
  const plainUsing = using === undefined || columnRef(using) === column || castOfColumn(using, column, target);
  const current = known.table(table)?.columns.get(col);
  const from = current?.type;
  const rewrite = !plainUsing
    ? "it has a USING expression"
    : !from
      ? "the column's current type is not in the plan, so the worst case is assumed"
      : coercible(from, target)
        ? undefined
        : zoneOnly(from, target)
          ? `${show(from)} to ${show(target)} is a rewrite unless the session TimeZone is UTC, when PostgreSQL changes the catalog only`
          : `${show(from)} to ${show(target)} is not binary-coercible`;
  const sameType = from !== undefined && show(from) === show(target);
  const collationChanges = current === undefined || (collationOf(def) ?? "default") !== (current.collation ?? "default");
  const reach = typeChangeReach(table, col, { sameType, collationChanges }, known);
  const holds = rewrite === undefined ? reach.holds : longer("rewrite", reach.holds);
  const findings = rewrite === undefined ? reach.findings : [finding.typeChangeRewrite(table, col, `${rewrite}${reach.unknown ?? ""}`), ...reach.findings];
  if (current !== undefined && def !== undefined) current.collation = collationOf(def);
  return { mode: AE, holds, findings, other: reach.locks };
}

// timestamp and timestamptz hold the same bits: PostgreSQL 15 skips the rewrite between them when
// the session's TimeZone is UTC, which the plan does not say (the operator's session's setting).
function zoneOnly(from: TypeRef, to: TypeRef): boolean {
  const pair = new Set([from.name, to.name]);
  if (from.array !== to.array || pair.size !== 2 || !pair.has("timestamp") || !pair.has("timestamptz")) return false;
  return to.mods.length === 0 || (from.mods.length > 0 && to.mods[0]! >= from.mods[0]!);
}

function castOfColumn(using: unknown, column: string | undefined, target: TypeRef): boolean {
  const u = unwrap(using);
  if (u?.[0] !== "TypeCast" || columnRef(u[1].arg) !== column) return false;
  const t = typeRef(u[1].typeName);
  return t !== undefined && t.name === target.name && t.mods.join() === target.mods.join();
}

const show = (t: TypeRef): string => `${t.name}${t.mods.length ? `(${t.mods.join(",")})` : ""}${t.array ? "[]" : ""}`;

/** Whether PostgreSQL changes `from` to `to` without touching a row (binary-coercible, a widening or the same type). */
export function coercible(from: TypeRef, to: TypeRef): boolean {
  if (from.array !== to.array) return false;
  const widened = to.mods.length === 0 || (from.mods.length > 0 && to.mods.every((m, i) => m >= (from.mods[i] ?? 0)));
  if (from.name === to.name) {
    if (from.mods.join() === to.mods.join()) return true;
    if (from.name === "numeric") return to.mods.length === 0 || (from.mods.length === 2 && to.mods.length === 2 && to.mods[1] === from.mods[1] && to.mods[0]! >= from.mods[0]!);
    return ["varchar", "varbit", "timestamp", "timestamptz", "time", "timetz", "interval"].includes(from.name) && widened;
  }
  if (from.name === "varchar" && to.name === "text") return true;
  if (from.name === "text" && to.name === "varchar") return to.mods.length === 0;
  if (from.name === "cidr" && to.name === "inet") return true;
  return false;
}
