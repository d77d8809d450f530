// Every scenario in test/scenarios/*.yaml, end to end: the real kubectl and the built plugin
// (PATH from the global setup's PTAH_BIN_DIR) against the lab and its operator simulator.
// One test per scenario; it passes when every claim held and every read-only step held again
// as lab-viewer, and fails naming each claim that did not, with what was observed instead.
// Each run is recorded as the demo records it (test/scenarios/page/recorder.ts) into
// .cache/e2e-pages/, and that page is checked in headless Chromium (./replay-page.ts), so the
// pages are tested on the runs this tier makes anyway rather than on a second replay. The page
// checks are tests of their own, after the scenarios: without chromium they are skipped with
// their reason (test/support/machine-tools.ts; required under CI) and the scenarios still run.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../support/chromium.ts";
import { kubectl, labEnv } from "../support/lab.ts";
import { needTool } from "../support/machine-tools.ts";
import { ptah } from "../support/plugin.ts";
import { formatChecks, formatFailures, listScenarioFiles } from "../scenarios/runner.ts";
import { labSecrets, recordScenario, writePages } from "../scenarios/page/recorder.ts";
import { checkIndexPage, checkReplayPage } from "./replay-page.ts";

/** After the seed's story: the history tells it in order, and explain says why the approval is stale. */
function checkStaleApprovalStory(namespace: string): void {
  const history = ptah(["history", "storefront", "-n", namespace]);
  expect(history.status, history.stderr).toBe(0);
  const lines = history.stdout.split("\n");
  const consumed = lines.findIndex((l) => /ptahschemaapproval\/storefront-v1 +condition +Consumed=True DispatchCommitted/u.test(l));
  const stale = lines.findIndex((l) => /ptahschemaapproval\/storefront-v1 +condition +Stale=True PlanNoLongerCurrent/u.test(l));
  const event = lines.findIndex((l) => /ptahschemaapproval\/storefront-v1 +event +Warning ApprovalStale/u.test(l));
  expect(consumed, history.stdout).toBeGreaterThan(0);
  expect(stale, history.stdout).toBeGreaterThan(consumed);
  expect(event, history.stdout).toBeGreaterThan(0);
  const explain = ptah(["explain", "approval", "storefront-v1", "-n", namespace]);
  expect(explain.status, explain.stderr).toBe(0);
  expect(explain.stdout).toContain("is Stale (PlanNoLongerCurrent) after it was Consumed (DispatchCommitted)");
  expect(explain.stdout).toContain(`kubectl ptah approve storefront -n ${namespace} | kubectl create -f -`);
}

interface LedgerItem {
  readonly name: string;
  readonly approver: string;
  readonly approvedAt?: string;
  readonly consumedAt?: string;
  readonly appliedAt?: string;
  readonly staleAt?: string;
  readonly staleReason?: string;
}

/** storefront-v1 approved by lab-approver at T1, consumed at T2, applied at T3 (DISPATCHED BY: the simulator's images), stale at T4, T1 ≤ T2 ≤ T3 ≤ T4. */
function checkLedger(namespace: string): void {
  const table = ptah(["ledger", "storefront", "-n", namespace]);
  expect(table.status, table.stderr).toBe(0);
  const stamp = "(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ)";
  const row = new RegExp(
    `^storefront-v1 +storefront +ptah-plan-\\S+ +sha256:[0-9a-f]{12} +lab-approver +\\S+ +${stamp} +\\S+ +${stamp} +${stamp} +sim-\\S+ registry\\.lab/ptah-operator@sha256:[0-9a-f]{12}, runner registry\\.lab/ptah-runner@sha256:[0-9a-f]{12} +PlanNoLongerCurrent ${stamp} +Consumed, stale$`,
    "mu",
  ).exec(table.stdout);
  expect(row, table.stdout).not.toBeNull();
  const [t1, t2, t3, t4] = row!.slice(1).map((t) => Date.parse(t!));
  expect([t1! <= t2!, t2! <= t3!, t3! <= t4!], table.stdout).toEqual([true, true, true]);
  const json = ptah(["ledger", "storefront", "-n", namespace, "-o", "json"]);
  const item = (JSON.parse(json.stdout) as { items: LedgerItem[] }).items.find((i) => i.name === "storefront-v1");
  expect(item).toMatchObject({ approver: "lab-approver", staleReason: "PlanNoLongerCurrent" });
}

/** What each identity may do about the new plan that waits: read only, approve, or nothing at all. */
function checkInbox(namespace: string): void {
  const viewer = ptah(["inbox", "-n", namespace], "viewer");
  expect(viewer.status, viewer.stderr).toBe(0);
  expect(viewer.stdout).toMatch(new RegExp(`^${namespace} +ptahschema/storefront +\\S+ +\\d+ +no +\\S+ +read only +kubectl ptah plan storefront -n ${namespace}$`, "mu"));
  const approver = ptah(["inbox", "-n", namespace], "approver");
  expect(approver.status, approver.stderr).toBe(0);
  expect(approver.stdout).toMatch(new RegExp(`ptahschema/storefront .* approve +kubectl ptah approve storefront -n ${namespace} \\| kubectl create -f -$`, "mu"));
  const nobody = ptah(["inbox", "-n", namespace], "nobody");
  expect(nobody).toMatchObject({ status: 1, stdout: "" });
  expect(nobody.stderr).toMatch(/^error: .*forbidden: User "lab-nobody" cannot list resource "ptah(schemas|migrations)"[^\n]*\n$/u);
}

/** Step 7 is the seed's `psql -c "\d customers"`: PostgreSQL's own table, v1's columns only (signed_up_at was never approved). */
const CUSTOMERS_V1 = [
  '             Table "public.customers"',
  " Column |  Type  | Collation | Nullable | Default ",
  "--------+--------+-----------+----------+---------",
  " id     | bigint |           | not null | ",
  " email  | text   |           | not null | ",
  "Indexes:",
  '    "customers_pkey" PRIMARY KEY, btree (id)',
  "",
  "",
].join("\n");

const skip = process.env.PTAH_E2E_SKIP;
const files = listScenarioFiles();
const PAGES = path.join(import.meta.dirname, "..", "..", ".cache", "e2e-pages");

/** Each scenario's recorded page and run, by scenario id, for the Chromium checks below. */
const recorded = new Map<string, { page: string; result: Awaited<ReturnType<typeof recordScenario>>["result"] }>();

describe.skipIf(Boolean(skip))("scenarios against the lab, recorded", () => {
  beforeAll(() => {
    fs.rmSync(PAGES, { recursive: true, force: true });
  });

  it.each(files.map((f) => [path.basename(f, ".yaml"), f]))(
    "%s: every claim holds, read-only steps hold as lab-viewer, and its page is recorded",
    async (id, file) => {
      const { result, record } = await recordScenario(file, { binDir: process.env.PTAH_BIN_DIR! });
      const scenario = result.scenario;
      const failed = result.checks.filter((c) => !c.held);
      expect(failed, `scenario ${scenario.id} in namespace ${result.namespace}:\n${formatFailures(result.checks)}\n\n${formatChecks(result.checks)}`).toEqual([]);
      expect(result.checks.length).toBeGreaterThan(scenario.steps.length - 1);
      expect(
        result.steps.filter((s) => s.viewer && !s.viewer.held).map((s) => `step ${s.index}: ${s.viewer!.detail}`),
        "read-only steps that did not hold as lab-viewer",
      ).toEqual([]);
      expect(result.steps.some((s) => s.viewer)).toBe(true);
      const [page] = writePages(PAGES, [record]);
      recorded.set(id!, { page: page!, result });
      if (scenario.id === "stale-approval") {
        const step7 = result.steps.find((st) => st.index === 7);
        expect(step7?.step.run.trim()).toBe('psql -c "\\d customers"');
        expect(step7?.stdout).toBe(CUSTOMERS_V1);
        checkStaleApprovalStory(result.namespace);
        checkLedger(result.namespace);
        checkInbox(result.namespace);
        // The ledger is built from durable fields: it tells the same story once the Events are gone,
        // and history says none are held.
        kubectl(["delete", "events", "--all"], { namespace: result.namespace });
        checkLedger(result.namespace);
        const history = ptah(["history", "storefront", "-n", result.namespace]);
        // (the simulator may have written a new Event since: either way the header says what is held)
        expect(history.stdout.split("\n")[0]).toMatch(/^The API server holds (no Events in namespace \S+: they expire|Events in namespace \S+ back to )/u);
        expect(history.stdout).toMatch(/ptahschemaapproval\/storefront-v1 +ledger +approved +approved by lab-approver/u);
      }
    },
    180_000,
  );
});

describe.skipIf(Boolean(skip))("the recorded pages in headless Chromium", () => {
  let browser: Browser | undefined;
  /** The browser, launched by the first test that has chromium. */
  async function open(ctx: Parameters<typeof needTool>[0]): Promise<Browser> {
    const binary = needTool(ctx, "chromium");
    browser ??= await Browser.launch(binary);
    return browser;
  }
  afterAll(async () => {
    await browser?.close();
  });

  it.for(files.map((f) => path.basename(f, ".yaml")))("%s: its page shows the run", async (id, ctx) => {
    const b = await open(ctx);
    const run = recorded.get(id);
    expect(run, `scenario ${id} recorded no page (did its test above fail?)`).toBeDefined();
    await checkReplayPage(b, run!.page, run!.result, PAGES);
  });

  it("index.html lists every recorded run", async (ctx) => {
    const b = await open(ctx);
    const pages = fs.readdirSync(PAGES).filter((f) => f.endsWith(".html") && f !== "index.html");
    expect(pages.length, "no scenario page was recorded (did the tests above fail?)").toBe(files.length);
    await checkIndexPage(
      b,
      path.join(PAGES, "index.html"),
      files.map((f) => path.basename(f, ".yaml")),
    );
  });
});

// A step that prints the lab's credentials (kubectl config view --raw: every client key) is
// recorded like any other; its page holds the names of the keys, never a value.
describe.skipIf(Boolean(skip))("a recorded page and the lab's secrets", () => {
  it("holds no private key of the lab, even when a step prints them", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-leak-probe-"));
    const file = path.join(dir, "leak-probe.yaml");
    fs.writeFileSync(
      file,
      [
        "id: leak-probe",
        "title: A step that prints the lab's client keys",
        "variables: [KUBECONFIG, NAMESPACE]",
        "steps:",
        "  - note: The whole kubeconfig, keys included.",
        '    run: kubectl config view --raw && cat "$(dirname "$KUBECONFIG")/../pki/lab-approver.key"',
        "    expect: {exit: 0, stdout_contains: [client-key-data, PRIVATE KEY]}",
        "",
      ].join("\n"),
    );
    try {
      const { result, record } = await recordScenario(file, { binDir: process.env.PTAH_BIN_DIR! });
      expect(result.steps[0]!.stdout, "the probe printed the keys").toContain("client-key-data: LS0t");
      const [page] = writePages(dir, [record]);
      const html = fs.readFileSync(page!, "utf8");
      const lab = labEnv();
      const keys = labSecrets(lab.labDir);
      expect(keys.map((k) => k.name)).toContain("pki/lab-approver.key");
      const approverKey = fs.readFileSync(lab.users.approver.key, "utf8");
      const keyLines = approverKey.split("\n").filter((l) => l && !l.startsWith("-----"));
      for (const line of keyLines) expect(html).not.toContain(line);
      expect(html).not.toContain(Buffer.from(approverKey).toString("base64").slice(0, 200));
      for (const k of keys) for (const form of k.forms) expect(html).not.toContain(form);
      expect(html).toContain("[redacted: pki/lab-approver.key]");
      expect(fs.readFileSync(path.join(dir, "leak-probe.json"), "utf8")).not.toContain(keyLines[3]!);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
