// Prints the plain closing line CI reads ("N passed, N failed, N skipped") from vitest's JSON report.
import { readFileSync } from "node:fs";

try {
  const r = JSON.parse(readFileSync(new URL("../.cache/vitest-report.json", import.meta.url), "utf8"));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
} catch {
  console.log("0 passed, 1 failed");
}
