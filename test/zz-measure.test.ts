import { it } from "vitest";
import { srcProgram } from "./support/transport-proof.ts";
import { processReachProblems } from "./support/process-reach.ts";
import { importProblems, usedByLayer } from "./support/import-allowlist.ts";
it("m", () => {
  const p = srcProgram();
  console.log(processReachProblems(p).join("\n"));
  console.log(importProblems(p).join("\n"));
  console.log(JSON.stringify(usedByLayer(p)));
}, 600000);
