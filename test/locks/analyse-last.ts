// The analyser's verdict on one statement after what the plan said before it, as the rule tables
// (rules.test.ts, reach.test.ts) ask it.
import { analyseStatements, type LockPolicy, type StatementLocks } from "../../src/locks/index.ts";

export async function last(sql: string, before: string[] = [], policy: LockPolicy = { transactionMode: "none" }): Promise<StatementLocks> {
  const r = await analyseStatements(
    [...before, sql].map((s) => ({ sql: s })),
    policy,
    "postgres",
  );
  return r.statements[r.statements.length - 1]!;
}
