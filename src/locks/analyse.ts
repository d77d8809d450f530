// The lock analyser: for every statement of a postgres plan, the relations it locks and in which
// mode, what that blocks, how long it is held, and findings a person acts on; then the plan as
// the operator's transaction holds it. Pure: the plan's statements and the schema's policy in,
// a report out; nothing is read from a database (the verdicts were measured on PostgreSQL 15 by
// test/e2e/lock-trace.e2e.test.ts). A statement it cannot read is a `notAnalysed` row, never a throw.
import { unwrap } from "./ast.ts";
import { finding } from "./findings.ts";
import { Known } from "./known.ts";
import { parseStatement, preloadParser, type Node } from "./parser.ts";
import { statementLocks } from "./rules.ts";
import { heldThroughLaterSteps, transactionView } from "./transaction.ts";
import {
  blocksOf,
  longer,
  reduceLocks,
  type Finding,
  type Holds,
  type LockPolicy,
  type LockReport,
  type RelationLock,
  type StatementLocks,
  type TransactionMode,
} from "./lock-types.ts";

/** The plan dialects the analyser reads (the operator writes `postgres`; `postgresql` is its alias). */
const POSTGRES = new Set(["postgres", "postgresql", "pg"]);

export async function analyseStatements(statements: readonly { readonly sql: string }[], policy: LockPolicy, dialect: string): Promise<LockReport> {
  const mode: TransactionMode = policy.transactionMode ?? "file";
  if (!POSTGRES.has(dialect.toLowerCase())) {
    return {
      dialect,
      analysed: false,
      reason: `not analysed (dialect ${dialect})`,
      statements: [],
      transaction: transactionView([], mode, policy.lockTimeout),
      findings: 0,
      notAnalysed: statements.length,
    };
  }
  try {
    await preloadParser();
  } catch (err) {
    const why = `not analysed (the PostgreSQL parser did not load: ${err instanceof Error ? err.message : String(err)})`;
    return { dialect, analysed: false, reason: why, statements: [], transaction: transactionView([], mode, policy.lockTimeout), findings: 0, notAnalysed: statements.length };
  }
  return analyseLoaded(statements, policy, dialect);
}

/** The same analysis once the parser is loaded (preloadParser resolved); synchronous. */
export function analyseLoaded(statements: readonly { readonly sql: string }[], policy: LockPolicy, dialect: string): LockReport {
  const mode: TransactionMode = policy.transactionMode ?? "file";
  const known = new Known();
  const protectedTables = (policy.protectedTables ?? []).map((t) => (t.includes(".") ? t : `public.${t}`).toLowerCase());
  let rows = statements.map((s, index) => analyseOne(s.sql, index, known, mode, protectedTables));
  rows = heldThroughLaterSteps(rows, mode);
  return {
    dialect,
    analysed: true,
    statements: rows,
    transaction: transactionView(rows, mode, policy.lockTimeout),
    findings: rows.reduce((n, r) => n + r.findings.length, 0),
    notAnalysed: rows.filter((r) => r.notAnalysed !== undefined).length,
  };
}

function analyseOne(sql: string, index: number, known: Known, mode: TransactionMode, protectedTables: readonly string[]): StatementLocks {
  const skipped = (why: string): StatementLocks => ({ index, locks: [], blocks: "nothing", holds: "catalog-only", findings: [], notAnalysed: why });
  if (typeof sql !== "string") return skipped("the statement is not text");
  const parsed = parseStatement(sql);
  if ("error" in parsed) return skipped(parsed.error);
  try {
    const locks: RelationLock[] = [];
    const findings: Finding[] = [];
    let holds: Holds = "catalog-only";
    for (const [i, stmt] of parsed.stmts.entries()) {
      const u = unwrap(stmt);
      if (!u) return skipped("the parser returned a statement of an unknown shape");
      const again = (): Node | undefined => {
        const p = parseStatement(sql);
        return "stmts" in p ? unwrap(p.stmts[i])?.[1] : undefined;
      };
      const v = statementLocks(u[0], u[1], known, mode, again);
      if (v.notAnalysed !== undefined) return skipped(v.notAnalysed);
      locks.push(...v.locks);
      findings.push(...v.findings);
      holds = longer(holds, v.holds);
    }
    const reduced = reduceLocks(locks);
    const blocks = blocksOf(reduced.map((l) => l.mode));
    for (const l of reduced) {
      const b = blocksOf([l.mode]);
      if (b !== "nothing" && isProtected(l.relation, protectedTables)) findings.push(finding.protectedTable(l.relation, l.mode, b));
    }
    return { index, locks: reduced, blocks, holds, findings };
  } catch (err) {
    return skipped(`the analyser could not read it: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** protectedTables entries are `table` or `schema.table`, matched case-insensitively (the operator's rule). */
function isProtected(relation: string, protectedTables: readonly string[]): boolean {
  const bare = relation.replaceAll('"', "").toLowerCase();
  return protectedTables.includes(bare);
}
