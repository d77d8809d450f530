// Change windows and freezes, enforced by the lab's real kube-apiserver alone, through the real
// kubectl: Kubernetes' CEL has no now(), so the policies `kubectl ptah policy render --window …
// --freeze …` prints read the approval's metadata.creationTimestamp, which the API server sets from
// its own clock before validating admission. The windows are rendered around the server's own
// "now" (read from a dry-run create's creationTimestamp): now ± 1 h admits, its complement
// refuses; a freeze containing today refuses with its dates, one that ended yesterday admits; the
// break-glass group is admitted inside a freeze. Bound to this test's namespace and removed after.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEventsSince, auditMark, kubectl } from "../support/lab.ts";
import { pluginEnv, ptah } from "../support/plugin.ts";
import { applyPolicy, approvalOf, explainPaste, kubectlAs, phaseOf, removePolicy, SCHEMA, storefrontNamespace, until, waitSchema, type Person, type Run } from "./policy-setup.ts";

const skip = process.env.PTAH_E2E_SKIP;
const NAME = `window${Date.now().toString(36)}`;
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const approver: Person = { name: "lab-approver", groups: [] };
const oncall: Person = { name: "lab-approver", groups: [`oncall-${NAME}`] };

let ns = "";
const tryApprove = (p: Person): Run => kubectlAs(p, ["create", "--dry-run=server", "-f", "-"], approvalOf(ns));

/** The API server's clock: the creationTimestamp it gives a dry-run create. */
function serverNow(): Date {
  const r = kubectl(["create", "configmap", `clock-${Date.now()}`, "--dry-run=server", "-o", "jsonpath={.metadata.creationTimestamp}"], { namespace: ns });
  return new Date(r.stdout.trim());
}

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

/** Weekly windows (UTC) covering [from, to) minutes from the start of `day`'s week day, split at midnight. */
function windows(day: number, from: number, to: number): string[] {
  const out: string[] = [];
  for (let start = from; start < to;) {
    const d = (((day + Math.floor(start / 1440)) % 7) + 7) % 7;
    const dayStart = Math.floor(start / 1440) * 1440;
    const end = Math.min(to, dayStart + 1440);
    out.push(`${DAYS[d]} ${hhmm(start - dayStart)}-${hhmm(end - dayStart)} UTC`);
    start = end;
  }
  return out;
}

const apply = (flags: string[]) => applyPolicy(ns, NAME, flags);
const refused = (r: Run) => r.code !== 0 && r.stderr.includes(`ValidatingAdmissionPolicy '${NAME}-`);

describe.skipIf(Boolean(skip))("policy: change windows and freezes, on the real API server", () => {
  beforeAll(async () => {
    ns = storefrontNamespace("policy-window");
    await waitSchema(ns, (s) => phaseOf(s) === "AwaitingApproval", "AwaitingApproval");
  }, 120_000);
  afterAll(() => removePolicy(NAME));

  it("admits an approval inside a window rendered around the server's now ± 1 h, and refuses it in the complement", async () => {
    const now = serverNow();
    const day = now.getUTCDay();
    const minute = now.getUTCHours() * 60 + now.getUTCMinutes();
    apply(windows(day, minute - 60, minute + 60).flatMap((w) => ["--window", w]));
    const open = await until(
      () => tryApprove(approver),
      (r) => r.code === 0,
    );
    expect(open, open.stderr).toMatchObject({ code: 0 });
    // Read back by the plugin: the window is open and closes when it was rendered to, in an hour.
    const closes = new Date(Math.floor(now.getTime() / 60_000) * 60_000 + 60 * 60_000);
    const at = `${DAYS[closes.getUTCDay()]} ${hhmm(closes.getUTCHours() * 60 + closes.getUTCMinutes())} UTC`;
    const status = ptah(["status", SCHEMA, "-n", ns], "approver");
    expect(status.stdout).toMatch(new RegExp(`\n  Window: +open — closes ${at} \\(in (59m|1h 0m)\\)\n`, "u"));
    expect(ptah(["inbox", "-n", ns], "approver").stdout).toMatch(new RegExp(`WINDOW[\\s\\S]*open — closes ${at}`, "u"));
    // The MCP server's status tool, over real stdio through the real kubectl, carries the same line.
    const env = Object.fromEntries(Object.entries(pluginEnv("approver")).filter((e): e is [string, string] => e[1] !== undefined));
    const client = new Client({ name: "policy-window-e2e", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: "kubectl", args: ["ptah", "mcp", "-n", ns], env }));
    try {
      const r = (await client.callTool({ name: "status", arguments: { schema: SCHEMA } })) as CallToolResult;
      const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      expect(text).toMatch(new RegExp(`\n  Window: +open — closes ${at} \\(in (58m|59m|1h 0m)\\)\n`, "u"));
    } finally {
      await client.close();
    }
    const quiet = ptah(["approve", SCHEMA, "-n", ns], "approver");
    expect(quiet).toMatchObject({ status: 0, stderr: "" });
    // The complement: the rest of the week, from now + 1 h round to now - 1 h.
    const complement = windows(day, minute + 60, minute + 60 + 7 * 1440 - 120);
    apply(complement.flatMap((w) => ["--window", w]));
    const closed = await until(() => tryApprove(approver), refused);
    expect(closed.code).not.toBe(0);
    expect(closed.stderr).toContain(
      `ValidatingAdmissionPolicy '${NAME}-window' with binding '${NAME}-window' denied request: approvals are admitted only within the change windows `,
    );
    expect(closed.stderr).toContain(`this approval of schema ${ns}/${SCHEMA} arrived at `);
    expect(closed.stderr).toContain(`Next: run kubectl ptah approve ${SCHEMA} -n ${ns} | kubectl create -f - again once the window is open`);
    // The real kubectl's stderr, pasted into explain: the window's topic, with the names read back.
    expect(explainPaste(closed.stderr)).toMatchObject([{ topic: "concept/change-window", slots: { namespace: ns, schema: SCHEMA } }]);
    // The plugin predicts the refusal with the server's own words, and still prints the approval.
    const warned = ptah(["approve", SCHEMA, "-n", ns], "approver");
    expect(warned.status).toBe(0);
    expect(warned.stdout).toContain("kind: PtahSchemaApproval");
    const said = /denied request: (.*) arrived at /u.exec(closed.stderr)![1]!;
    expect(warned.stderr).toMatch(/^Warning: the API server would refuse this approval if it were created now \(ValidatingAdmissionPolicy \S+-window\): /u);
    expect(warned.stderr).toContain(said);
    expect(ptah(["status", SCHEMA, "-n", ns], "approver").stdout).toMatch(/\n {2}Window: +closed — opens \w{3} \d\d:\d\d UTC \(in /u);
    removePolicy(NAME);
  }, 120_000);

  it("refuses inside a freeze, naming its dates; admits after one; admits the break-glass group, marked", async () => {
    const today = serverNow().toISOString().slice(0, 10);
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    apply(["--freeze", `${today}..${today} UTC`, "--freeze", "2020-12-18..2021-01-04", "--breakglass-group", oncall.groups[0]!]);
    const frozen = await until(() => tryApprove(approver), refused);
    expect(frozen.code).not.toBe(0);
    expect(frozen.stderr).toContain(
      `denied request: approvals are frozen from ${today} to ${today} (whole days, UTC); this approval of schema ${ns}/${SCHEMA} arrived at ${today}T`,
    );
    expect(frozen.stderr).toContain(`, or, in an emergency, have a member of ${oncall.groups[0]} create it (recorded in the audit log)`);
    expect(explainPaste(frozen.stderr)).toMatchObject([{ topic: "concept/freeze", slots: { namespace: ns, schema: SCHEMA, from: today, to: today, group: oncall.groups[0] } }]);
    const mark = auditMark();
    expect(tryApprove(oncall), "the break-glass group").toMatchObject({ code: 0 });
    const key = `${NAME}-freeze/breakglass`;
    const marked = await until(
      () => ({
        code: 0,
        stderr: "",
        stdout: auditEventsSince(mark)
          .map((e) => e.annotations?.[key] ?? "")
          .join(""),
      }),
      (r) => r.stdout !== "",
    );
    expect(marked.stdout).toMatch(new RegExp(`^break-glass: lab-approver approved schema ${ns}/${SCHEMA} inside a freeze at ${today}T`, "u"));
    apply(["--freeze", `2020-12-18..${yesterday} UTC`]);
    const after = await until(
      () => tryApprove(approver),
      (r) => r.code === 0,
    );
    expect(after, after.stderr).toMatchObject({ code: 0 });
  }, 120_000);
});
