// Every flag `kubectl options` lists on this machine is accepted by the plugin, with kubectl's
// shorthand and kind (boolean or value): the list comes from kubectl itself, so a kubectl that
// grows a flag fails this test until the table (src/cli/global-flags.ts) has it. Each flag then
// goes through the real shell: never "unknown flag"; a flag the plugin refuses says why.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { GLOBAL_FLAGS } from "../../src/cli/global-flags.ts";
import { FakeReader } from "../support/fake-reader.ts";
import { runCliWith } from "../support/cli.ts";
import { awaitingSchema } from "../support/builders.ts";
import { toolsRequired } from "../support/machine-tools.ts";

/** kubectl 1.33 where gcloud keeps it, else the kubectl on PATH. */
function kubectlOptions(): string | undefined {
  for (const bin of [process.env.KUBECTL_FOR_OPTIONS, "/usr/lib/google-cloud-sdk/bin/kubectl.1.33", "kubectl"]) {
    if (!bin || (bin.includes("/") && !fs.existsSync(bin))) continue;
    const r = spawnSync(bin, ["options"], { encoding: "utf8" });
    if (r.status === 0 && r.stdout.includes("--kubeconfig")) return r.stdout;
  }
  return undefined;
}

interface KubectlFlag {
  readonly name: string;
  readonly short: string | undefined;
  readonly boolean: boolean;
}

/** `    -n, --namespace='':` and `    --insecure-skip-tls-verify=false:` lines. */
export function parseOptions(text: string): KubectlFlag[] {
  const out: KubectlFlag[] = [];
  for (const m of text.matchAll(/^\s+(?:-(\w), )?--([\w-]+)=(.*):$/gmu)) {
    out.push({ name: m[2]!, short: m[1], boolean: m[3] === "false" || m[3] === "true" });
  }
  return out;
}

const text = kubectlOptions();
const kubectlFlags = text ? parseOptions(text) : [];
/** Why the table below is empty: said as a skip, never passed by iterating nothing. */
const noKubectl = text ? undefined : "no kubectl on this machine answers `kubectl options`";

describe("kubectl options", () => {
  it("kubectl is on this machine and lists its flags (CI needs it)", (ctx) => {
    if (noKubectl && !toolsRequired()) ctx.skip(noKubectl);
    expect(kubectlFlags.length).toBeGreaterThan(20);
  });

  if (noKubectl) it.skip(`every flag of kubectl options is accepted: ${noKubectl}`, () => {});

  it.each(kubectlFlags.map((f) => [f.name, f] as const))("--%s is accepted with kubectl's shorthand and kind", (_name, f) => {
    const ours = GLOBAL_FLAGS.find((g) => g.name === f.name);
    expect(ours, `--${f.name} is missing from GLOBAL_FLAGS`).toBeDefined();
    expect("alias" in ours! ? ours.alias : undefined).toBe(f.short);
    expect(ours!.type === "boolean").toBe(f.boolean);
  });

  const SAMPLE: Record<string, string> = {
    v: "0",
    "request-timeout": "5s",
    "log-flush-frequency": "5s",
    profile: "none",
    namespace: "app",
    as: "alice",
    "as-group": "g",
    "as-uid": "1",
  };

  it.each(kubectlFlags.map((f) => [f.name, f] as const))("--%s goes through the real shell without 'unknown flag'", async (_name, f) => {
    const argv = f.boolean ? ["status", `--${f.name}`] : ["status", `--${f.name}=${SAMPLE[f.name] ?? "x"}`];
    const r = await runCliWith(argv, new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema() }]));
    expect(r.stderr).not.toMatch(/unknown (shorthand )?flag/u);
    if (r.status === 2) expect(r.stderr).toMatch(/^error: --[\w-]+(=\w+)? cannot (hold|be captured): /u);
    else expect(r.status).toBe(0);
  });
});
