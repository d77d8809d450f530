// `kubectl ptah __complete …` (Cobra's protocol, as kubectl's plugin completion calls it) and
// `kubectl ptah completion SHELL`, in-process over a FakeReader.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { COMPLETION_REQUEST_TIMEOUT_MS, outputFormats } from "../../../src/cli/complete.ts";
import { findCommand } from "../../../src/commands/all-commands.ts";
import { COMMAND_HEADERS } from "../../../src/commands/registry.ts";
import { completionScript, KUBECTL_COMPLETE_SCRIPT } from "../../../src/commands/completion/completion-command.ts";
import type { ClusterReader } from "../../../src/kube/types.ts";
import type { GlobalOptions } from "../../../src/commands/command-types.ts";
import { ReadError } from "../../../src/errors.ts";
import { aMigration, anApproval, awaitingSchema, CONSUMED_AND_STALE, inSyncSchema } from "../../support/builders.ts";
import { REAL_CONNECTION, runCliWith } from "../../support/cli.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { needTool } from "../../support/machine-tools.ts";

function reader(): FakeReader {
  return new FakeReader([
    { kind: "PtahSchema", raw: awaitingSchema({ name: "storefront", namespace: "app" }) },
    { kind: "PtahSchema", raw: inSyncSchema({ name: "orders", namespace: "app" }) },
    { kind: "PtahSchema", raw: inSyncSchema({ name: "billing", namespace: "other" }) },
    { kind: "PtahMigration", raw: aMigration({ name: "backfill", namespace: "app", phase: "Succeeded", conditions: [] }) },
  ]);
}

/** Runs `__complete ARGS…` and splits the answer into values (descriptions dropped) and the directive. */
async function complete(args: readonly string[], r: ClusterReader | null = reader(), namespace = "app") {
  // null: no cluster at all (undefined would pick the default reader).
  const result = await runCliWith(["__complete", ...args], r ?? undefined, { namespace });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  const lines = result.stdout.split("\n");
  expect(lines.pop()).toBe(""); // ends with a newline
  const last = lines.pop()!;
  expect(last).toMatch(/^:\d+$/u);
  return { values: lines.map((l) => l.split("\t")[0]!), lines, directive: Number(last.slice(1)), stdout: result.stdout };
}

describe("__complete: commands and flags", () => {
  it("lists every command with its summary as description, no file completion", async () => {
    const r = await complete([""]);
    expect(r.lines).toEqual(COMMAND_HEADERS.map((h) => `${h.name}\t${h.summary}`));
    expect(r.lines[0]).toMatch(/^status\tShow every PtahSchema/u);
    expect(r.directive).toBe(4);
  });

  it("filters commands by the typed prefix, after global flags too", async () => {
    expect((await complete(["ap"])).values).toEqual(["approve", "approvals"]);
    expect((await complete(["-n", "app", "--context", "x", "st"])).values).toEqual(["status"]);
  });

  it("never lists __complete itself", async () => {
    expect((await complete(["__"])).values).toEqual([]);
  });

  it("lists a command's own flags first, then the global flags, with shorthands for a bare dash", async () => {
    const r = await complete(["status", "-"]);
    expect(r.values.slice(0, 2)).toEqual(["--watch", "-w"]);
    expect(r.values).toEqual(expect.arrayContaining(["--namespace", "-n", "--context", "--kubeconfig", "--output", "-o", "--help"]));
    expect(r.directive).toBe(4);
  });

  it("offers long names only for `--`, and leaves out flags already given", async () => {
    const r = await complete(["status", "-n", "app", "--"]);
    expect(r.values).not.toContain("--namespace");
    expect(r.values).not.toContain("-w");
    expect(r.values).toContain("--watch");
    expect((await complete(["plan", "storefront", "--st"])).values).toEqual(["--statements"]);
  });

  it("hides the global flags a command does not use, and offers --version at the top level", async () => {
    expect((await complete(["version", "--"])).values).not.toContain("--all-namespaces");
    expect((await complete(["--v"])).values).toContain("--version");
  });
});

describe("__complete: flag values", () => {
  it("completes -o with the command's formats, without a space after jsonpath=", async () => {
    const r = await complete(["status", "-o", ""]);
    expect(r.values).toEqual(["wide", "json", "yaml", "name", "jsonpath=", "custom-columns=", "custom-columns-file="]);
    expect(r.directive).toBe(4 | 2);
    expect((await complete(["plan", "x", "--output", "s"])).values).toEqual(["sql"]);
    expect((await complete(["ledger", "-o", ""])).values).toEqual(["json", "yaml", "csv"]);
    expect((await complete(["inbox", "-o", ""])).values).toEqual(["json", "yaml"]);
    expect((await complete(["plan", "x", "--output", "s"])).directive).toBe(4);
  });

  it("completes --output=VALUE with the value alone, as Cobra does", async () => {
    expect((await complete(["schema", "--output=j"])).values).toEqual(["json"]);
    expect((await complete(["explain", "-o="])).values).toEqual(["json", "name"]);
  });

  it("reads every command's formats from its usage line", () => {
    expect(outputFormats(findCommand("approve"))).toEqual(["yaml", "json"]);
    expect(outputFormats(findCommand("version"))).toEqual(["json", "yaml"]);
    expect(outputFormats(findCommand("migration"))).toEqual(["text", "json"]);
    expect(outputFormats(findCommand("wait"))).toEqual([]);
  });

  it("completes --color, --dry-run and wait's --for", async () => {
    expect((await complete(["status", "--color", ""])).values).toEqual(["auto", "always", "never"]);
    expect((await complete(["approve", "x", "--dry-run="])).values).toEqual(["none", "client", "server"]);
    const wait = await complete(["wait", "storefront", "--for", ""]);
    expect(wait.values).toEqual(["condition=", "phase=", "approval=consumed", "approval=reserved"]);
    expect(wait.directive).toBe(6);
  });

  it("completes doctor --probe with schema names of the namespace on the line", async () => {
    expect((await complete(["doctor", "--probe", ""])).values).toEqual(["storefront", "orders"]);
    expect((await complete(["doctor", "-n", "other", "--probe", "b"])).values).toEqual(["billing"]);
  });

  it("lets the shell complete a file for --kubeconfig (directive 0)", async () => {
    const r = await complete(["status", "--kubeconfig", ""]);
    expect(r).toMatchObject({ values: [], directive: 0 });
  });

  it("completes --context from the kubeconfig named on the line, without a cluster", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-complete-"));
    try {
      const file = path.join(dir, "config");
      fs.writeFileSync(
        file,
        JSON.stringify({
          contexts: [
            { name: "prod", context: {} },
            { name: "staging", context: {} },
          ],
          "current-context": "prod",
        }),
      );
      expect((await complete(["--kubeconfig", file, "status", "--context", ""], null)).values).toEqual(["prod", "staging"]);
      expect((await complete([`--kubeconfig=${file}`, "--context", "st"], null)).values).toEqual(["staging"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("__complete: names from the cluster", () => {
  it("completes schema names for status, schema and plan, in the context's namespace", async () => {
    for (const command of ["status", "schema", "plan"]) {
      const fake = reader();
      expect((await complete([command, ""], fake)).values).toEqual(["storefront", "orders"]);
      expect(fake.requests).toEqual(["list PtahSchema app"]);
    }
  });

  it("honours -n / --namespace typed anywhere on the line", async () => {
    expect((await complete(["status", "-n", "other", ""])).values).toEqual(["billing"]);
    expect((await complete(["--namespace=other", "plan", "b"])).values).toEqual(["billing"]);
    expect((await complete(["status", "-nother", ""])).values).toEqual(["billing"]);
    expect((await complete(["-n=other", "plan", "b"])).values).toEqual(["billing"]);
  });

  it("passes --context and --kubeconfig from the line to the connection, with a short request timeout", async () => {
    let seen: GlobalOptions | undefined;
    const result = await runCliWith(["__complete", "--context", "prod", "--kubeconfig", "/k/config", "status", ""], reader(), {
      namespace: "app",
      env: {},
      onConnect: (global) => (seen = global),
    });
    expect(result.stdout).toBe("storefront\norders\n:4\n");
    expect(seen).toMatchObject({ context: "prod", kubeconfig: "/k/config", requestTimeoutMs: COMPLETION_REQUEST_TIMEOUT_MS });
  });

  it("completes migration names for migration and acknowledge", async () => {
    expect((await complete(["migration", ""])).values).toEqual(["backfill"]);
    expect((await complete(["acknowledge", "b"])).values).toEqual(["backfill"]);
  });

  it("offers schema names and the keyword migration, then migration names (approve migration <TAB>)", async () => {
    for (const command of ["approve", "approvals", "ledger", "history", "wait"]) {
      const first = await complete([command, ""]);
      expect(first.values).toEqual(["storefront", "orders", "migration"]);
      expect((await complete([command, "migration", ""])).values).toEqual(["backfill"]);
      expect((await complete([command, "storefront", ""])).values).toEqual([]);
    }
  });

  it("offers nothing once a command has its names", async () => {
    expect(await complete(["status", "storefront", ""])).toMatchObject({ values: [], directive: 4 });
    expect(await complete(["version", ""])).toMatchObject({ values: [], directive: 4 });
  });

  it("is silent when the cluster fails: `:4` only, nothing on stderr, exit 0", async () => {
    const fake = reader();
    fake.faults.set("list PtahSchema", new ReadError("Get https://x: connection refused"));
    const r = await complete(["status", ""], fake);
    expect(r.stdout).toBe(":4\n");
    const noCluster = await complete(["status", ""], null);
    expect(noCluster.stdout).toBe(":4\n");
  });

  it("is silent with a real connection that cannot be made (no kubeconfig)", async () => {
    const result = await runCliWith(["__complete", "--kubeconfig", "/nonexistent/ptah/config", "status", ""], REAL_CONNECTION, { env: { HOME: "/nonexistent" } });
    expect(result).toMatchObject({ stdout: ":4\n", stderr: "", status: 0 });
  });

  it("gives up on a cluster that never answers, within the deadline", async () => {
    const hanging = { list: () => new Promise(() => undefined) } as unknown as ClusterReader;
    const started = Date.now();
    const r = await complete(["status", ""], hanging);
    expect(r.stdout).toBe(":4\n");
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("__complete: diff --from and --to", () => {
  const withApprovals = () => {
    const r = reader();
    r.put("PtahSchemaApproval", anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }));
    r.put("PtahSchemaApproval", anApproval({ name: "storefront-v2" }));
    return r;
  };

  it("offers the words --from and --to take", async () => {
    expect((await complete(["diff", "storefront", "--from", ""])).values).toEqual(["applied", "approval", "plan"]);
    expect((await complete(["diff", "storefront", "--to", ""])).values).toEqual(["current", "plan"]);
    expect((await complete(["diff", "storefront", "--from=ap"])).values).toEqual(["applied", "approval"]);
  });

  it("offers approval names after --from approval and plan names after --from plan or --to plan", async () => {
    expect((await complete(["diff", "storefront", "--from", "approval", ""], withApprovals())).values).toEqual(["storefront-v1", "storefront-v2"]);
    expect((await complete(["diff", "storefront", "--from=approval", "storefront-v"], withApprovals())).values).toEqual(["storefront-v1", "storefront-v2"]);
    const r = withApprovals();
    await complete(["diff", "storefront", "--to", "plan", ""], r);
    expect(r.requests).toEqual(["list PtahSchemaPlan app"]);
  });

  it("offers schema names for the diff's one positional", async () => {
    expect((await complete(["diff", ""])).values).toEqual(["storefront", "orders"]);
  });
});

describe("__complete: words", () => {
  it("completes completion's shells and help's commands", async () => {
    expect((await complete(["completion", ""])).values).toEqual(["bash", "zsh", "fish", "kubectl"]);
    expect((await complete(["help", "ex"])).values).toEqual(["explain"]);
  });

  it("completes explain topics offline, in any case, with their summaries, each word once", async () => {
    const fake = reader();
    const r = await complete(["explain", "stale"], fake);
    expect(r.values).toContain("Stale");
    expect(r.values).toContain("StalePlan");
    expect(new Set(r.values).size).toBe(r.values.length);
    expect(r.lines.find((l) => l.startsWith("Stale\t"))).toMatch(/^Stale\t\S/u);
    expect(fake.requests).toEqual([]);
    const all = await complete(["explain", ""], fake);
    expect(all.values.length).toBeGreaterThan(50);
    expect(all.values).toEqual(expect.arrayContaining(["PlanNoLongerCurrent", "AwaitingApproval", "fingerprint"]));
  });

  it("explain approval <TAB> offers approval names and approval topics; explain migration <TAB> migrations", async () => {
    const fake = reader();
    fake.put("PtahSchemaApproval", anApproval({ name: "storefront-approval", namespace: "app" }));
    const approval = await complete(["explain", "approval", ""], fake);
    expect(approval.values[0]).toBe("storefront-approval");
    expect(approval.values).toEqual(expect.arrayContaining(["Stale", "Consumed", "Superseded"]));
    const migration = await complete(["explain", "migration", "b"], fake);
    expect(migration.values).toEqual(["backfill", "Blocked"]);
  });

  it("completes nothing for an unknown command", async () => {
    expect(await complete(["apply", ""])).toMatchObject({ values: [], directive: 4 });
  });
});

describe("completion SHELL", () => {
  it("prints kubectl's plugin-completion helper for `kubectl`", async () => {
    const r = await runCliWith(["completion", "kubectl"], undefined);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    expect(r.stdout).toBe(KUBECTL_COMPLETE_SCRIPT);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("#!/usr/bin/env sh");
    expect(lines.at(-1)).toBe('exec kubectl ptah __complete "$@"');
  });

  it.each(["bash", "zsh", "fish"])("prints a %s script that calls __complete for kubectl-ptah", async (shell) => {
    const r = await runCliWith(["completion", shell], undefined);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    expect(r.stdout).toContain("__complete");
    expect(r.stdout).toContain("kubectl-ptah");
  });

  it("refuses a missing or unknown shell with a usage error (exit 2)", async () => {
    for (const argv of [["completion"], ["completion", "powershell"], ["completion", "bash", "zsh"]]) {
      const r = await runCliWith(argv, undefined);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: /u);
    }
  });
});

// The scripts themselves, run by the real shells where they are installed. The plugin is
// replaced by a stub that records its arguments and answers like __complete would.
const bash = spawnSync("bash", ["--version"]).status === 0;
describe.skipIf(!bash)("the bash script", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-bash-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function run(line: string, answer: string, wordbreaks = " \t\n\"'><=;|&(:"): { reply: string[]; args: string; options: string } {
    const stub = path.join(dir, "kubectl-ptah");
    fs.writeFileSync(stub, `#!/usr/bin/env bash\nprintf '%s\\n' "$@" > ${dir}/args\nprintf '${answer}'\n`, { mode: 0o755 });
    const script = path.join(dir, "completion.bash");
    fs.writeFileSync(script, completionScript("bash"));
    const program = [
      `source ${script}`,
      `compopt() { echo "$*" >> ${dir}/compopt; }`,
      `COMP_WORDBREAKS=${JSON.stringify(wordbreaks)}`,
      `COMP_LINE=${JSON.stringify(line)}`,
      "COMP_POINT=${#COMP_LINE}",
      "_kubectl_ptah_complete",
      `printf '%s\\n' "\${COMPREPLY[@]}"`,
    ].join("\n");
    fs.rmSync(path.join(dir, "compopt"), { force: true });
    const r = spawnSync("bash", ["--norc", "--noprofile", "-c", program], { encoding: "utf8", env: { PATH: `${dir}:${process.env.PATH ?? ""}` } });
    expect(r.stderr).toBe("");
    const options = fs.existsSync(path.join(dir, "compopt")) ? fs.readFileSync(path.join(dir, "compopt"), "utf8") : "";
    return { reply: r.stdout.split("\n").filter(Boolean), args: fs.readFileSync(path.join(dir, "args"), "utf8"), options };
  }

  it("sends the words and the current word, and keeps the candidates matching it", () => {
    const r = run("kubectl-ptah -n app st", "status\\tShow\\nstop\\n:4\\n");
    expect(r.args).toBe("__complete\n-n\napp\nst\n");
    expect(r.reply).toEqual(["status", "stop"]);
    expect(r.options).toBe("");
  });

  it("sends an empty current word after a space", () => {
    const r = run("kubectl-ptah status ", "storefront\\n:4\\n");
    expect(r.args).toBe("__complete\nstatus\n\n");
    expect(r.reply).toEqual(["storefront"]);
  });

  it("completes the value of --output=… (with and without = as a word break)", () => {
    expect(run("kubectl-ptah status --output=ya", "yaml\\n:4\\n").reply).toEqual(["yaml"]);
    expect(run("kubectl-ptah status --output=ya", "yaml\\n:4\\n", " \t\n").reply).toEqual(["--output=yaml"]);
  });

  it("applies the directives: no space, file completion", () => {
    expect(run("kubectl-ptah status -o ", "jsonpath=\\n:6\\n").options).toContain("nospace");
    expect(run("kubectl-ptah status --kubeconfig ", ":0\\n").options).toContain("default");
  });
});

/** A stub kubectl-ptah in `dir` that records its arguments and prints `answer`. */
function stub(dir: string, answer: string): void {
  fs.writeFileSync(path.join(dir, "kubectl-ptah"), `#!/bin/sh\nprintf '%s\\n' "$@" > ${dir}/args\nprintf '${answer}'\n`, { mode: 0o755 });
}

describe("the zsh script", () => {
  beforeEach((ctx) => void needTool(ctx, "zsh"));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-zsh-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  // zsh's completion system stubbed: _describe prints its options and the candidates it got.
  const harness = [
    "compdef() { :; }",
    "compset() { [[ $1 == -P ]] && PREFIX=${PREFIX#*=}; return 0; }",
    '_describe() { print -rl -- "options:${(j: :)@[5,-1]}" "${(@P)4}"; }',
    '_files() { print -r -- "FILES"; }',
    'source "$1"',
    'words=("${(@)argv[2,-1]}")',
    "CURRENT=${#words}",
    "_kubectl_ptah",
    'print -r -- "status:$?"',
  ].join("\n");

  function run(answer: string, ...words: string[]): { out: string[]; args: string } {
    stub(dir, answer);
    fs.writeFileSync(path.join(dir, "completion.zsh"), completionScript("zsh"));
    fs.writeFileSync(path.join(dir, "harness.zsh"), harness);
    const r = spawnSync("zsh", ["-f", path.join(dir, "harness.zsh"), path.join(dir, "completion.zsh"), ...words], {
      encoding: "utf8",
      env: { PATH: `${dir}:${process.env.PATH ?? ""}` },
    });
    expect(r.stderr).toBe("");
    return { out: r.stdout.split("\n").filter(Boolean), args: fs.readFileSync(path.join(dir, "args"), "utf8") };
  }

  it("passes the words and offers name:description pairs", () => {
    const r = run("status\\tShow every schema\\nstop\\n:4\\n", "kubectl-ptah", "-n", "app", "st");
    expect(r.args).toBe("__complete\n-n\napp\nst\n");
    expect(r.out).toEqual(["options:", "status:Show every schema", "stop", "status:0"]);
  });

  it("adds no space after jsonpath= (directive 2), and falls back to files without directive 4", () => {
    expect(run("jsonpath=\\n:6\\n", "kubectl-ptah", "status", "-o", "").out).toEqual(["options:-S ", "jsonpath=", "status:0"]);
    expect(run(":0\\n", "kubectl-ptah", "status", "--kubeconfig", "").out).toEqual(["FILES", "status:0"]);
    expect(run(":4\\n", "kubectl-ptah", "status", "x", "").out).toEqual(["status:1"]);
  });
});

describe("the fish script", () => {
  beforeEach((ctx) => void needTool(ctx, "fish"));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-fish-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function run(answer: string, line: string): { out: string[]; args: string } {
    stub(dir, answer);
    fs.writeFileSync(path.join(dir, "completion.fish"), completionScript("fish"));
    const r = spawnSync("fish", ["--no-config", "-c", `source ${dir}/completion.fish; complete -C ${JSON.stringify(line)}`], {
      encoding: "utf8",
      env: { PATH: `${dir}:${process.env.PATH ?? ""}`, HOME: dir },
    });
    expect(r.stderr).toBe("");
    return { out: r.stdout.split("\n").filter(Boolean), args: fs.readFileSync(path.join(dir, "args"), "utf8") };
  }

  it("passes the words and the current token, and shows descriptions", () => {
    const r = run("status\\tShow every schema\\n:4\\n", "kubectl-ptah -n app st");
    expect(r.args).toBe("__complete\n-n\napp\nst\n");
    expect(r.out).toEqual(["status\tShow every schema"]);
  });

  it("keeps the --output= prefix on values", () => {
    expect(run("json\\n:4\\n", "kubectl-ptah status --output=j").out).toEqual(["--output=json"]);
  });
});
