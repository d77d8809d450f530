// The npm bin's build, for tests that run it as npm installs it: dist/ is built by `npm test`
// (and the e2e setup); a file run alone builds it here when any part is missing.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { writePacks } from "../../krew/packs.mjs";

export const REPO = path.resolve(import.meta.dirname, "..", "..");
export const NPM_BIN = path.join(REPO, "bin", "kubectl-ptah.js");
const PARTS = ["dist/start.cjs", "dist/npm/kubectl-ptah.cjs", "dist/npm/process-guard.cjs", "dist/meta.npm.json"].map((p) => path.join(REPO, p));

export function ensureNpmBundle(): void {
  if (PARTS.every((p) => fs.existsSync(p))) return;
  const r = spawnSync(process.execPath, [path.join(REPO, "krew", "bundle.mjs")], { cwd: REPO, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`krew/bundle.mjs failed: ${r.stderr}`);
}

/**
 * Writes a copy's packs again from its files, as the build does (krew/packs.mjs): a test that
 * plants code in a file of a copy runs it as a build with that file would.
 */
export function repack(root: string): void {
  const meta = JSON.parse(fs.readFileSync(path.join(root, "dist", "meta.npm.json"), "utf8")) as Parameters<typeof writePacks>[1];
  writePacks(path.join(root, "dist", "npm"), meta);
}

/**
 * The mutation runner's active mutant (test/mutation/mutate.mjs names it in the environment), for a
 * child that runs the built bundle: in Stryker's sandbox that bundle is built from the mutated
 * source, and the child must see the mutant too, or it is judged on the unmutated code.
 */
export function mutantEnv(): Record<string, string> {
  const id = process.env["__STRYKER_ACTIVE_MUTANT__"];
  return id === undefined ? {} : { __STRYKER_ACTIVE_MUTANT__: id };
}
