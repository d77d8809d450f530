// ALTER COLUMN … TYPE: PostgreSQL rewrites the table unless the new type is the same, a widening
// it checks without reading a row (varchar(n) to a longer or unbounded varchar or text, numeric's
// precision at the same scale, …) or binary-coercible (cidr to inet). It needs the column's
// current type, which only a plan that created the column says; otherwise the worst case.
import { columnRef, typeRef, unwrap, type TypeRef } from "./ast.ts";
import { finding } from "./findings.ts";
import type { Known } from "./known.ts";
import type { Node } from "./parser.ts";
import type { Finding, Holds, LockMode } from "./lock-types.ts";

interface Part {
  mode: LockMode;
  holds: Holds;
  findings?: Finding[];
}

const AE: LockMode = "ACCESS EXCLUSIVE";

export function alterType(table: string, column: string | undefined, def: Node | undefined, known: Known): Part {
  const target = typeRef(def?.typeName);
  const col = column ?? "?";
  if (!target) return { mode: AE, holds: "rewrite", findings: [finding.typeChangeRewrite(table, col, "the new type could not be read")] };
  const using = def?.raw_default;
  const plainUsing = using === undefined || columnRef(using) === column || castOfColumn(using, column, target);
  const from = known.table(table)?.columns.get(col)?.type;
  const rewrite = !plainUsing
    ? "it has a USING expression"
    : !from
      ? "the column's current type is not in the plan, so the worst case is assumed"
      : coercible(from, target)
        ? undefined
        : `${show(from)} to ${show(target)} is not binary-coercible`;
  return rewrite === undefined ? { mode: AE, holds: "catalog-only" } : { mode: AE, holds: "rewrite", findings: [finding.typeChangeRewrite(table, col, rewrite)] };
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
