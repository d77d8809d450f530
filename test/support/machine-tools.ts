// The machine tools some tests need and the project does not install itself (Debian packages:
// a browser, emulators, other shells). A test that needs one calls needTool() first: with the tool
// there it runs; without it, it is skipped with vitest's own skip and a note saying what is missing
// and the command that installs it (test/support/not-run-reporter.ts lists those notes at the end
// of the run); under CI (CI=true or CI=1, or PTAH_E2E=required; .ci/run sets CI=true and
// PTAH_E2E=required) every tool is required and a missing one fails the test instead. Besides the
// Debian packages: tools built once into ~/.cache from the Go module proxy (krew's, k9s) and the
// archive of `npm run build:binary`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromiumPath } from "./chromium.ts";

function onPath(name: string): string | undefined {
  const r = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : undefined;
}

/**
 * Whether `file` is a program this user can run: a regular file with execute permission. Existing
 * is not enough: a tool hidden by binding /dev/null over it (a newcomer's run with the optional tools hidden) still exists.
 */
function runnable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

const REPO = path.resolve(import.meta.dirname, "..", "..");
const KREW_DIR_SAID = "~/.cache/kubectl-ptah/krew-bin or $PTAH_KREW_BIN_DIR";
const KREW_INSTALL = "node krew/krew-tools.mjs (builds krew and validate-krew-manifest once from the Go module proxy)";

/** One of krew's tools where krew/krew-tools.mjs builds them ($PTAH_KREW_BIN_DIR or ~/.cache), or on PATH. */
function krewTool(name: string): string | undefined {
  const built = path.join(process.env.PTAH_KREW_BIN_DIR ?? path.join(os.homedir(), ".cache", "kubectl-ptah", "krew-bin"), name);
  if (runnable(built)) return built;
  const found = onPath(name);
  return found && runnable(found) ? found : undefined;
}

/** The arm64 sysroot qemu-user needs for node's shared libraries (Debian's libc6-arm64-cross). */
export const ARM64_SYSROOT = "/usr/aarch64-linux-gnu";

interface MachineTool {
  /** What is missing, as the skip note says it. */
  readonly missing: string;
  /** The command that installs it (Debian). */
  readonly install: string;
  readonly find: () => string | undefined;
}

export const MACHINE_TOOLS = {
  chromium: { missing: "no chromium on PATH (or PTAH_CHROMIUM)", install: "apt-get install chromium fonts-dejavu-core", find: chromiumPath },
  "qemu-user": {
    missing: "no qemu-aarch64-static with the arm64 sysroot",
    install: "apt-get install qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross",
    find: () => {
      const qemu = onPath("qemu-aarch64-static") ?? onPath("qemu-aarch64");
      return qemu && fs.existsSync(`${ARM64_SYSROOT}/lib/ld-linux-aarch64.so.1`) ? qemu : undefined;
    },
  },
  // Debian's wine64 package installs its loader outside PATH.
  wine64: { missing: "no wine64", install: "apt-get install wine64", find: () => ["/usr/lib/wine/wine64", onPath("wine64")].find((c) => c !== undefined && runnable(c)) },
  zsh: { missing: "no zsh on PATH", install: "apt-get install zsh", find: () => onPath("zsh") },
  fish: { missing: "no fish on PATH", install: "apt-get install fish", find: () => onPath("fish") },
  tmux: { missing: "no tmux on PATH", install: "apt-get install tmux", find: () => onPath("tmux") },
  // The oracle of the export's SSH signatures (test/plan/ssh-signature.test.ts): OpenSSH's own.
  "ssh-keygen": { missing: "no ssh-keygen on PATH", install: "apt-get install openssh-client", find: () => onPath("ssh-keygen") },
  // The oracle of the kubeconfig's YAML bounds (test/kube/yaml-aliases.test.ts): kubectl's own reading.
  kubectl: { missing: "no kubectl on PATH", install: "install kubectl (the e2e tier and test/cli/kubectl-options.test.ts need it too)", find: () => onPath("kubectl") },
  // Not a Debian package: built from the Go module proxy once (the e2e k9s test, plugin-manifest/k9s/).
  k9s: {
    missing: "k9s is not built (~/.cache/kubectl-ptah/k9s-bin/k9s, or $PTAH_K9S_BIN_DIR)",
    install: "node plugin-manifest/k9s/k9s-tool.mjs (builds it once from the Go module proxy)",
    find: () => {
      const bin = path.join(process.env.PTAH_K9S_BIN_DIR ?? path.join(os.homedir(), ".cache", "kubectl-ptah", "k9s-bin"), "k9s");
      return runnable(bin) ? bin : undefined;
    },
  },
  // The Go toolchain: the oracles of test/oracle/ are built with it (the lab needs it too).
  go: { missing: "no Go toolchain on PATH", install: "install Go >= 1.26 (https://go.dev/dl/)", find: () => onPath("go") },
  // krew's own tools, built from the Go module proxy once (test/distribution/manifest.test.ts).
  krew: {
    missing: `krew is not built (kubectl-krew in ${KREW_DIR_SAID}, or on PATH)`,
    install: KREW_INSTALL,
    find: () => krewTool("kubectl-krew"),
  },
  "validate-krew-manifest": {
    missing: `validate-krew-manifest is not built (in ${KREW_DIR_SAID}, or on PATH)`,
    install: KREW_INSTALL,
    find: () => krewTool("validate-krew-manifest"),
  },
  // PostgreSQL migration linter, the lock analyser's cross-check (test/locks/squawk.test.ts): its
  // binary taken out of PyPI's squawk-cli wheel once, pinned (test/locks/squawk-tool.mjs).
  squawk: {
    missing: "squawk is not fetched (~/.cache/kubectl-ptah/squawk-bin/squawk, or $PTAH_SQUAWK_BIN_DIR)",
    install: "node test/locks/squawk-tool.mjs (takes the binary out of PyPI's squawk-cli wheel once)",
    find: () => {
      const bin = path.join(process.env.PTAH_SQUAWK_BIN_DIR ?? path.join(os.homedir(), ".cache", "kubectl-ptah", "squawk-bin"), "squawk");
      return runnable(bin) ? bin : undefined;
    },
  },
  // Not a tool but a build: this machine's archive and its krew manifest, which .ci/run builds before npm test.
  "build:binary": {
    missing: "no dist/krew/ptah.yaml (this machine's archive and its krew manifest)",
    install: "npm run build:binary",
    find: () => {
      const built = path.join(REPO, "dist", "krew", "ptah.yaml");
      return fs.existsSync(built) ? built : undefined;
    },
  },
} satisfies Record<string, MachineTool>;

export type ToolName = keyof typeof MACHINE_TOOLS;

/**
 * Whether this run must have every machine tool and every tier: CI (`CI=true` or `CI=1`, as CI
 * services set it, or `PTAH_E2E=required`; .ci/run sets both).
 */
export function toolsRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(?:true|1)$/iu.test(env.CI ?? "") || env.PTAH_E2E === "required";
}

/** The skip note of a missing tool: what is missing and how to install it. */
export function skipNote(name: ToolName): string {
  const t = MACHINE_TOOLS[name];
  return `needs ${name}: ${t.missing}; to run it: ${t.install}`;
}

const found = new Map<ToolName, string | undefined>();

/**
 * The tool's path. Without it the running test is skipped with skipNote(name) — or, under CI,
 * fails with the same words — so nothing after this call runs without the tool.
 */
export function needTool(ctx: { skip(note: string): never }, name: ToolName): string {
  if (!found.has(name)) found.set(name, MACHINE_TOOLS[name].find());
  const path = found.get(name);
  if (path) return path;
  if (toolsRequired()) throw new Error(`${skipNote(name)} (required under CI=true, CI=1 or PTAH_E2E=required)`);
  return ctx.skip(skipNote(name));
}
