// The k9s plugin file (plugin-manifest/k9s/plugins.yaml) in the real k9s, built
// from the Go module proxy (plugin-manifest/k9s/k9s-tool.mjs), run in tmux against the lab as
// lab-viewer and driven as a person would: `:ptahschemas`, the schema selected, its shortcut. The
// status shortcut shows the detail view's `Next:` line; the approve shortcut shows the manifest and
// creates nothing (no approval exists afterwards, and the audit log holds no create that is not a
// dry run). k9s reads as the person (lab-viewer); `kubectl ptah` inside it as the plugin's twin
// identity (the e2e setup's swap), which the read-only proof judges.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDryRun } from "../support/audit.ts";
import { auditEventsSince, auditMark, kubectl } from "../support/lab.ts";
import { needTool } from "../support/machine-tools.ts";
import { pluginEnv, runKubectl } from "../support/plugin.ts";
import { createScenarioNamespace, waitForSimulator } from "../scenarios/runner.ts";
import { storefrontSetup } from "./storefront-setup.ts";

const skip = process.env.PTAH_E2E_SKIP;
const REPO = path.resolve(import.meta.dirname, "..", "..");
const PLUGINS = path.join(REPO, "plugin-manifest", "k9s", "plugins.yaml");

let ns: string;
let socket: string | undefined;
let home: string;

function tmux(args: readonly string[]): string {
  const r = spawnSync("tmux", ["-L", socket!, ...args], { encoding: "utf8", timeout: 10_000 });
  if (r.status !== 0) throw new Error(`tmux ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

const screen = (): string => tmux(["capture-pane", "-p", "-t", "k9s"]);

/** Polls the pane until `pattern` shows; fails with the last screen. */
async function until(pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    last = screen();
    if (pattern.test(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`k9s did not show ${String(pattern)} within ${timeoutMs} ms; the screen:\n${last}`);
}

const keys = (...k: string[]): void => void tmux(["send-keys", "-t", "k9s", ...k]);

describe.skipIf(skip)("k9s with the ptah plugins, in tmux, against the lab", { timeout: 300_000 }, () => {
  beforeAll(async () => {
    await waitForSimulator();
    ns = createScenarioNamespace("k9s");
    kubectl(["apply", "-f", "-"], { namespace: ns, input: storefrontSetup() });
    const ready = runKubectl(["ptah", "wait", "storefront", "-n", ns, "--for=condition=ApprovalRequired", "--timeout=90s"], "viewer");
    expect(ready.status, ready.stderr).toBe(0);
  }, 180_000);

  afterAll(() => {
    if (socket) spawnSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" });
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it("status shows the Next: line; approve shows the manifest and creates nothing", async (ctx) => {
    needTool(ctx, "tmux");
    const k9s = needTool(ctx, "k9s");
    // k9s's own folders (config with our plugins file, state, logs) in a scratch HOME.
    home = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-k9s-"));
    const config = path.join(home, "k9s");
    fs.mkdirSync(config, { recursive: true });
    fs.copyFileSync(PLUGINS, path.join(config, "plugins.yaml"));
    socket = `ptah-k9s-${process.pid}`;
    const env = {
      ...pluginEnv("viewer"),
      HOME: home,
      K9S_CONFIG_DIR: config,
      XDG_CONFIG_HOME: home,
      XDG_STATE_HOME: home,
      XDG_DATA_HOME: home,
      XDG_CACHE_HOME: home,
      TERM: "xterm-256color",
      LESS: "",
    };
    const mark = auditMark();
    const start = spawnSync(
      "tmux",
      [
        "-L",
        socket,
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-s",
        "k9s",
        "-x",
        "220",
        "-y",
        "50",
        k9s,
        "--logoless",
        "--splashless",
        "--namespace",
        ns,
        "--command",
        "ptahschemas",
      ],
      { env, encoding: "utf8" },
    );
    expect(start.status, start.stderr).toBe(0);
    await until(/storefront/u);
    keys("T"); // Shift-T: ptah status
    const status = await until(/^Next:/mu);
    expect(status).toMatch(/storefront/u);
    keys("q");
    await until(/storefront +/u);
    keys("V"); // Shift-V: ptah approve (print only)
    const manifest = await until(/kind: PtahSchemaApproval/u);
    expect(manifest).toMatch(/planFingerprint: sha256:[0-9a-f]{64}/u);
    keys("q");
    await until(/storefront +/u);
    // Nothing was created: no approval in the namespace, and no create that was not a dry run.
    const approvals = kubectl(["get", "ptahschemaapprovals.operator.ptah.run", "-n", ns, "-o", "name"]);
    expect(approvals.stdout.trim()).toBe("");
    const creates = auditEventsSince(mark).filter((e) => e.verb === "create" && e.objectRef?.namespace === ns && !isDryRun(e));
    expect(creates.map((e) => `${e.user.username ?? "?"} ${e.requestURI}`)).toEqual([]);
  });
});
