// The release tier's setup: `npm run build:release` (the bundle, then six SEA binaries from the
// pinned Node builds, their archives and the six-platform manifest), once per run. The Node
// builds and rcodesign are cached under $HOME/.cache/kubectl-ptah, so only the first run
// downloads (~230 MB from the npm registry) and builds rcodesign (cargo, many minutes).
// The build is required: a failure fails the tier (there is no skip).
import { spawnSync } from "node:child_process";
import path from "node:path";

const REPO = path.resolve(import.meta.dirname, "..", "..");

export default function setup(): void {
  process.stderr.write("[release] npm run build:release (first run: downloads the Node builds, builds rcodesign)\n");
  const r = spawnSync("npm", ["run", "-s", "build:release"], { cwd: REPO, stdio: ["ignore", "inherit", "inherit"], timeout: 60 * 60_000 });
  if (r.status !== 0) throw new Error(`npm run build:release failed (exit ${String(r.status)}); see the lines above`);
}
