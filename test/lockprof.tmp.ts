import { analyseStatements } from "../src/locks/index.ts";
function bigStatements(count: number) {
  const out = [];
  for (let t = 0; t < count; t++) {
    const cols = Array.from({ length: 24 }, (_, c) => `"column_${String(c).padStart(2, "0")}_of_table_${t}" text`).join(", ");
    out.push({ sql: `CREATE TABLE "bench_table_${String(t).padStart(5, "0")}" ("id" bigint PRIMARY KEY NOT NULL, ${cols})` });
  }
  return out;
}
const st = bigStatements(8931);
const hold = [];
let t0 = performance.now();
const { preloadParser } = await import("../src/locks/parser.ts");
await preloadParser();
console.log("load", (performance.now() - t0).toFixed(0));
t0 = performance.now();
const r = await analyseStatements(st, { transactionMode: "all" }, "postgres");
console.log("analyse", (performance.now() - t0).toFixed(0), r.statements.length, hold.length);
