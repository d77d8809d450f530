// The recorder behind `npm run demo` (lab/demo.mjs parses the flags, bundles this module and calls
// `demo`): replays scenarios against the lab, each read-only step again as lab-viewer, prints the
// session and its What was checked table, and with --html DIR writes one self-contained page per
// scenario (DIR/<id>.html, its run record DIR/<id>.json) and DIR/index.html of every run recorded
// there. The e2e tier records its pages with `recordScenario` and `writePages` too.
import fs from "node:fs";
import path from "node:path";
import { labEnv } from "../../support/lab.ts";
import { formatChecks, formatFailures, loadScenario, runScenario, type RunOptions, type ScenarioResult } from "../runner.ts";
import { ranAgainst } from "./environment.ts";
import { renderIndex } from "./index-page.ts";
import { renderPage } from "./page.ts";
import { toRecord, type RunRecord } from "./record.ts";
import { labSecrets } from "./secrets.ts";

export { renderIndex } from "./index-page.ts";
export { renderPage } from "./page.ts";
export { labSecrets, redact } from "./secrets.ts";
export { listScenarioFiles } from "../scenario.ts";

export interface Recorded {
  result: ScenarioResult;
  record: RunRecord;
}

/** Runs one scenario file (with the lab-viewer replay) and builds its run record. */
export async function recordScenario(file: string, opts: RunOptions & { binDir: string }): Promise<Recorded> {
  const scenario = loadScenario(file);
  const result = await runScenario(scenario, { ...opts, viewerReplay: true });
  const record = toRecord(result, ranAgainst(file, opts.binDir), labSecrets(labEnv().labDir));
  return { result, record };
}

/** Writes each record's page and JSON into dir, then index.html of every record in dir. */
export function writePages(dir: string, records: readonly RunRecord[]): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const r of records) {
    fs.writeFileSync(path.join(dir, `${r.id}.json`), `${JSON.stringify(r, null, 2)}\n`);
    fs.writeFileSync(path.join(dir, `${r.id}.html`), renderPage(r));
    written.push(path.join(dir, `${r.id}.html`));
  }
  const all = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as RunRecord)
    .filter((r) => typeof r.id === "string" && Array.isArray(r.checks));
  fs.writeFileSync(path.join(dir, "index.html"), renderIndex(all));
  written.push(path.join(dir, "index.html"));
  return written;
}

export interface DemoOptions {
  files: string[];
  html?: string;
  binDir: string;
  out: (s: string) => void;
  err: (s: string) => void;
}

function indent(text: string): string {
  return `${text
    .replace(/\n$/u, "")
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n")}\n`;
}

/** The terminal session of one run, as `npm run demo` always printed it. */
function terminalOptions(o: DemoOptions): RunOptions {
  return {
    log: (line) => o.err(`[demo] ${line}\n`),
    onStepStart: (index, step, as) => {
      const lines = step.run.replace(/\n$/u, "").split("\n");
      o.out(`# ${index}. ${step.note}${as === "approver" ? "" : `  (as lab-${as})`}\n`);
      o.out(
        `$ ${lines[0]!}\n${lines
          .slice(1)
          .map((l) => `> ${l}\n`)
          .join("")}`,
      );
    },
    onStep: (r) => {
      if (r.stdout) o.out(indent(r.stdout));
      if (r.stderr) o.out(indent(r.stderr));
      if (r.exit !== 0) o.out(`  (exit ${r.exit})\n`);
      if (r.viewer) o.out(`  [as lab-viewer: ${r.viewer.held ? "held" : `did not hold: ${r.viewer.detail}`}]\n`);
      o.out("\n");
    },
  };
}

/** Exit 0 when every claim held (and every read-only step as lab-viewer), 1 otherwise. */
export async function demo(o: DemoOptions): Promise<number> {
  const records: RunRecord[] = [];
  let failed = 0;
  for (const file of o.files) {
    const scenario = loadScenario(file);
    o.out(`${scenario.title}\n`);
    if (scenario.tagline) o.out(`${scenario.tagline}\n`);
    if (scenario.learn) o.out(`What it shows. ${scenario.learn}\n`);
    o.out("\n");
    const { result, record } = await recordScenario(file, { binDir: o.binDir, ...terminalOptions(o) });
    records.push(record);
    o.out("What was checked\n");
    o.out(
      "Every step states what has to hold before its output may be published. A condition is read as its type, status and reason on the live object, never as a phrase in a message.\n\n",
    );
    o.out(formatChecks(result.checks));
    const a = record.ranAgainst;
    o.out(
      `\nWhat it ran against\n- Kubernetes ${a.kubernetes}\n- Operator: ${a.simulator}, namespace ${result.namespace}\n- kubectl ptah ${a.plugin} (commit ${a.pluginCommit})\n- PostgreSQL ${a.postgres ?? "not in this lab"}\n- Recorded ${a.recordedAt}\n- Scenario at ${a.scenarioCommit}\n\n`,
    );
    const held = result.checks.filter((c) => c.held).length;
    const viewerFailed = result.steps.filter((s) => s.viewer?.held === false);
    if (!result.passed) {
      failed += 1;
      if (held < result.checks.length)
        o.err(`demo: ${scenario.id}: ${result.checks.length - held} of ${result.checks.length} claims did not hold:\n${formatFailures(result.checks)}\n`);
      for (const s of viewerFailed) o.err(`demo: ${scenario.id}: step ${s.index} is read-only but did not hold as lab-viewer: ${s.viewer!.detail}\n`);
    } else {
      o.out(`${held} checks held.\n\n`);
    }
  }
  if (o.html) {
    const written = writePages(o.html, records);
    o.err(`[demo] wrote ${written.map((f) => (path.relative(process.cwd(), f).startsWith("..") ? f : path.relative(process.cwd(), f))).join(", ")}\n`);
  }
  return failed === 0 ? 0 : 1;
}
