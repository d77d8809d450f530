// One replay page, after the seed: a line saying what it is, the terminal frame with the whole
// transcript (Play types it out), What was checked (Step | Claim | Held), What it ran against,
// What the commands read, the read-only steps replayed as lab-viewer, and how to reproduce it.
// A pure function of the run record: the same record renders to the same bytes.
import { SCRIPT, STYLE } from "./assets.ts";
import { el, text } from "./html.ts";
import { heldCount, type RecordedStep, type RunRecord } from "./record.ts";
import { reproduceScript } from "./reproduce.ts";

export const BRAND = "kubectl ptah";

/** The document around a page's body: inline style and script, nothing fetched. */
export function documentHtml(title: string, body: string, script: boolean): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${text(title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    `<main>\n${body}\n</main>`,
    ...(script ? [`<script>${SCRIPT}</script>`] : []),
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function asSuffix(step: RecordedStep, r: RunRecord): string {
  return step.as === r.as ? "" : `  (as lab-${step.as})`;
}

/** The transcript: per step a note, the command ($, then > for its further lines), what it printed. */
export function transcriptHtml(r: RunRecord): string {
  const parts: string[] = [];
  for (const s of r.steps) {
    if (parts.length > 0) parts.push("\n\n");
    parts.push(el("span", { class: "note" }, text(`# ${s.index}. ${s.note}${asSuffix(s, r)}`)), "\n");
    const lines = s.run.split("\n");
    parts.push(el("span", { class: "cmd" }, text([`$ ${lines[0]!}`, ...lines.slice(1).map((l) => `> ${l}`)].join("\n"))));
    const stdout = s.stdout.replace(/\n$/u, "");
    const stderr = s.stderr.replace(/\n$/u, "");
    if (stdout) parts.push("\n", el("span", { class: "out" }, text(stdout)));
    if (stderr) parts.push("\n", el("span", { class: "err" }, text(stderr)));
    if (s.exit !== 0) parts.push("\n", el("span", { class: "exit" }, text(`(exit ${s.exit})`)));
  }
  return parts.join("");
}

/** A Step | … | Held table: each row the step, its (already escaped) middle cell, held yes / no / another word. */
function heldTable(cls: string, middle: string, rows: ReadonlyArray<{ step: string; cell: string; held: boolean | string }>): string {
  const tr = rows.map((x) => {
    const word = x.held === true ? "yes" : x.held === false ? "no" : x.held;
    return el("tr", {}, [el("td", { class: "n" }, text(x.step)), el("td", {}, x.cell), el("td", { class: x.held === false ? "held no" : "held" }, text(word))].join(""));
  });
  return [`<table class="${cls}"><thead><tr><th class="n">Step</th><th>${middle}</th><th class="held">Held</th></tr></thead>`, `<tbody>\n${tr.join("\n")}\n</tbody></table>`].join(
    "\n",
  );
}

function checkedHtml(r: RunRecord): string {
  return [
    '<section id="checked">',
    "<h2>What was checked</h2>",
    '<p class="lead">Every step states what has to hold before its output may be published. A condition is read as its type, status and reason on the live object, never as a phrase in a message.</p>',
    heldTable(
      "checks",
      "Claim",
      r.checks.map((c) => ({ step: String(c.step), cell: text(c.claim), held: c.held })),
    ),
    "</section>",
  ].join("\n");
}

function ranAgainstHtml(r: RunRecord): string {
  const a = r.ranAgainst;
  const facts: Array<[string, string]> = [
    ["Kubernetes", `${a.kubernetes} (the lab: kube-apiserver and etcd, RBAC, an audit log)`],
    ["Operator", a.simulator],
    ["kubectl ptah", `${a.plugin} (commit ${a.pluginCommit})`],
    ["PostgreSQL", a.postgres ?? "not in this lab"],
    ["Recorded", a.recordedAt],
    ["Scenario at", `${a.scenarioCommit} (${r.file})`],
  ];
  return [
    '<section id="ran-against">',
    "<h2>What it ran against</h2>",
    `<dl class="facts">\n${facts.map(([k, v]) => `${el("dt", {}, text(k))}${el("dd", {}, text(v))}`).join("\n")}\n</dl>`,
    "</section>",
  ].join("\n");
}

function variablesHtml(r: RunRecord): string {
  return [
    '<section id="variables">',
    "<h2>What the commands read</h2>",
    "<p>A session is repeated, not admired, so every name in it is one your own environment can carry. There is nothing else: the recorder refuses a step that reads a name this list does not hold, and this page shows names, never the value of a credential. The commands are <code>kubectl</code> and <code>kubectl ptah</code>, the operator&#39;s read-only client, run as the lab&#39;s identities.</p>",
    `<dl class="facts">\n${r.variables.map((v) => `${el("dt", { class: "mono" }, text(v.name))}${el("dd", {}, text(v.means))}`).join("\n")}\n</dl>`,
    r.redactions > 0 ? el("p", { class: "muted" }, text(`${r.redactions} secret value(s) the lab generated were taken out of the transcript and shown as [redacted: NAME].`)) : "",
    "</section>",
  ]
    .filter(Boolean)
    .join("\n");
}

function viewerHtml(r: RunRecord): string {
  const ro = r.steps.filter((s) => s.readOnly);
  const intro = `<p>Each read-only step (one that runs no write verb and no <code>--dry-run=server</code> create) was run again right after it, as <code>lab-viewer</code>, whose role <code>ptah-viewer</code> may only get, list and watch. ${text(viewerVerdict(ro))}</p>`;
  if (ro.length === 0) return ['<section id="viewer">', "<h2>Read-only, as lab-viewer</h2>", "<p>This scenario has no read-only steps.</p>", "</section>"].join("\n");
  const rows = ro.map((s) => ({ step: String(s.index), cell: el("code", {}, text(s.run.split("\n")[0]!)), held: s.viewer?.held ?? "not replayed" }));
  return ['<section id="viewer">', "<h2>Read-only, as lab-viewer</h2>", intro, heldTable("viewer", "Command", rows), "</section>"].join("\n");
}

/** What the viewer replay showed, from its results: all held, some did not, or it did not run. */
function viewerVerdict(ro: RunRecord["steps"]): string {
  const replayed = ro.filter((s) => s.viewer !== undefined);
  const failed = replayed.filter((s) => !s.viewer!.held).length;
  const missing = ro.length - replayed.length;
  if (replayed.length === 0) return "None was replayed, so this page claims nothing for that identity.";
  const notRun = missing > 0 ? ` ${missing} of ${ro.length} were not replayed.` : "";
  if (failed > 0) return `The claims of ${failed} of ${replayed.length} replayed steps did not hold for that identity (marked no below).${notRun}`;
  return missing > 0
    ? `The claims of the ${replayed.length} replayed steps held for that identity too.${notRun}`
    : "Its claims held for that identity too: reading needs no write permission.";
}

function reproduceHtml(r: RunRecord): string {
  return [
    '<section id="reproduce">',
    "<h2>Reproduce it</h2>",
    `<p>From a checkout of kubectl-ptah, one command starts a lab of your own, replays this scenario with its checks and writes this page again:</p>`,
    el("pre", { class: "script" }, text(`npm ci\nnpm run demo -- ${r.id} --html site`)),
    "<p>Or by hand, command for command as it was recorded (a fresh namespace, the unrecorded set-up, then each step as its identity, read-only steps again as lab-viewer):</p>",
    el("pre", { class: "script", id: "reproduce-script" }, text(reproduceScript(r))),
    "</section>",
  ].join("\n");
}

/** The whole page of one recorded run. */
export function renderPage(r: RunRecord): string {
  const { held, total } = heldCount(r);
  const viewerFailed = r.steps.filter((s) => s.viewer?.held === false).map((s) => s.index);
  const asViewer = viewerFailed.length > 0 ? ` Step ${viewerFailed.join(", ")} is read-only but did not hold as lab-viewer.` : "";
  const lead =
    held === total && !asViewer
      ? `A replay of a verified run, not a live cluster. ${held} checks held while it was recorded. Play types it out in the frame below; the transcript is the same session, already there.`
      : `A replay of a run that did not verify: ${total - held} of ${total} checks did not hold while it was recorded. The transcript below is the session as it ran.${asViewer}`;
  const body = [
    "<header>",
    el("p", { class: "brand" }, text(BRAND)),
    el("h1", {}, text(r.title)),
    r.tagline ? el("p", { class: "tagline" }, text(r.tagline)) : "",
    r.learn ? el("p", { class: "learn" }, `<strong>What it shows.</strong> ${text(r.learn)}`) : "",
    "</header>",
    el("p", { class: "lead", id: "replay-note" }, text(lead)),
    '<section class="frame" aria-label="Transcript">',
    `<div class="frame-bar"><span class="dots" aria-hidden="true"><i></i><i></i><i></i></span>${el("span", { class: "frame-title" }, text(`${r.id} · ${r.steps.length} steps`))}<button type="button" id="play" class="play" aria-controls="transcript" hidden>Play</button><span id="play-status" class="visually-hidden" role="status"></span></div>`,
    `<pre id="transcript" class="transcript" tabindex="0">${transcriptHtml(r)}</pre>`,
    "</section>",
    checkedHtml(r),
    ranAgainstHtml(r),
    variablesHtml(r),
    viewerHtml(r),
    reproduceHtml(r),
    `<footer>The scenario is <code>${text(r.file)}</code>; <code>npm run demo -- --all --html site</code> replays the whole set against a lab of your own. <a href="index.html">All recorded runs</a>.</footer>`,
  ]
    .filter(Boolean)
    .join("\n");
  return documentHtml(`${r.title} · ${BRAND}`, body, true);
}
