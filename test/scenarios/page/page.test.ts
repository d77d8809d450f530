// Replay pages from fixed run data: the page and the index as goldens, byte-identical renders,
// everything command-supplied escaped, no lab secret value in a page, nothing fetched, and the
// read-only rule the lab-viewer replay relies on. (Recording real runs and loading the pages in
// Chromium is test/e2e/scenarios.e2e.test.ts.)
import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectGolden } from "../../support/golden.ts";
import { isReadOnlyStep, KNOWN_VARIABLES, VARIABLE_MEANINGS, type ScenarioStep } from "../scenario.ts";
import { postgresVersion } from "./environment.ts";
import { FIXED_RAN_AGAINST, fixedResult } from "./fixture.ts";
import { renderIndex } from "./index-page.ts";
import { renderPage, transcriptHtml } from "./page.ts";
import { toRecord } from "./record.ts";
import { reproduceScript } from "./reproduce.ts";
import { databaseName } from "../../sim/database.ts";
import { labSecrets, redact, secretOf } from "./secrets.ts";

const record = () => toRecord(fixedResult(), FIXED_RAN_AGAINST, []);

describe("a replay page", () => {
  it("renders stale-approval's fixed run as the golden page", async () => {
    await expectGolden(renderPage(record()), "replay/stale-approval.html");
  });

  it("renders the index of recorded runs as the golden index", async () => {
    await expectGolden(renderIndex([record()]), "replay/index.html");
  });

  it("is byte-identical when the same run data is rendered twice", () => {
    expect(renderPage(toRecord(fixedResult(), FIXED_RAN_AGAINST, []))).toBe(renderPage(toRecord(fixedResult(), FIXED_RAN_AGAINST, [])));
    const r = record();
    expect(renderPage(JSON.parse(JSON.stringify(r)) as typeof r)).toBe(renderPage(r));
  });

  it("says how many checks held, and has one table row per claim, in order", () => {
    const html = renderPage(record());
    const checks = fixedResult().checks;
    expect(html).toContain(`A replay of a verified run, not a live cluster. ${checks.length} checks held while it was recorded.`);
    const body = /<table class="checks">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/u.exec(html)![1]!;
    const rows = [...body.matchAll(/<tr><td class="n">([^<]*)<\/td><td>([^<]*)<\/td><td class="held">yes<\/td><\/tr>/gu)].map((m) => [m[1], m[2]!.replace(/&quot;/gu, '"')]);
    expect(rows).toEqual(checks.map((c) => [String(c.step), c.claim]));
  });

  it("says when a run did not verify", () => {
    const r = record();
    r.checks[2]!.held = false;
    const html = renderPage(r);
    expect(html).toContain(`1 of ${r.checks.length} checks did not hold while it was recorded`);
    expect(html).toContain('<td class="held no">no</td>');
  });

  it("fetches nothing: no external script, style, font or image", () => {
    const html = renderPage(record()) + renderIndex([record()]);
    expect(html).not.toMatch(/<(link|img|iframe|object|embed)\b|@import|url\(|\bsrc=|https?:\/\//u);
  });

  it("escapes everything a command printed, and neutralises control characters", () => {
    const hostile = '<script>alert("x")</script> <img src=x onerror=alert(1)> & \u001b[31mred\u0007';
    const r = toRecord(fixedResult({ step: 1, stdout: hostile }), FIXED_RAN_AGAINST, []);
    r.title = "<b>title</b>";
    const html = renderPage(r);
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>title");
    expect(html).not.toContain("\u001b");
    expect(html).not.toContain("\u0007");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt; &amp; ^[[31mred\\x07");
    expect(html.match(/<script>/gu)).toHaveLength(1);
  });

  it("keeps the whole transcript in the HTML: every note, command and output", () => {
    const html = transcriptHtml(record());
    for (const s of fixedResult().steps) expect(html).toContain(`# ${s.index}. ${s.step.note.replace(/'/gu, "&#39;")}`);
    expect(html).toContain("$ kubectl ptah status storefront -n &quot;$NAMESPACE&quot;");
    expect(html).toContain("&gt;   -p &#39;{&quot;spec&quot;");
    expect(html).toContain('<span class="exit">(exit 1)</span>');
  });

  it("shows each declared variable with what it means, and the read-only steps as lab-viewer", () => {
    const html = renderPage(record());
    expect(html).toContain(`<dt class="mono">NAMESPACE</dt><dd>${VARIABLE_MEANINGS.NAMESPACE!}</dd>`);
    const viewer = /<table class="viewer">[\s\S]*?<\/table>/u.exec(html)![0];
    expect([...viewer.matchAll(/<tr><td class="n">(\d+)<\/td>/gu)].map((m) => Number(m[1]))).toEqual([1, 3, 4, 6, 7, 8]);
  });

  // The sentence under "Read-only, as lab-viewer" is the viewer replay's result, not a promise.
  it.each<{ name: string; change: (r: ReturnType<typeof record>) => void; sentence: string }>([
    { name: "every replay held", change: () => {}, sentence: "Its claims held for that identity too: reading needs no write permission." },
    {
      name: "one replay did not hold",
      change: (r) => {
        r.steps.find((s) => s.viewer)!.viewer!.held = false;
      },
      sentence: "The claims of 1 of 6 replayed steps did not hold for that identity (marked no below).",
    },
    {
      name: "one step was not replayed",
      change: (r) => {
        delete (r.steps.find((s) => s.viewer) as { viewer?: unknown }).viewer;
      },
      sentence: "The claims of the 5 replayed steps held for that identity too. 1 of 6 were not replayed.",
    },
    {
      name: "the replay did not run",
      change: (r) => {
        for (const s of r.steps) delete (s as { viewer?: unknown }).viewer;
      },
      sentence: "None was replayed, so this page claims nothing for that identity.",
    },
  ])("says what the viewer replay showed: $name", ({ change, sentence }) => {
    const r = record();
    change(r);
    const section = /<section id="viewer">[\s\S]*?<\/section>/u.exec(renderPage(r))![0];
    expect(section).toContain(`may only get, list and watch. ${sentence}</p>`);
  });
});

describe("secrets", () => {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-secrets-"));
  fs.mkdirSync(path.join(dir, "pki"));
  fs.writeFileSync(path.join(dir, "pki", "lab-approver.key"), privateKey);
  fs.writeFileSync(path.join(dir, "pki", "lab-approver.crt"), "not a secret");
  const secrets = labSecrets(dir);
  const b64 = Buffer.from(privateKey).toString("base64");
  const bodyLine = privateKey.split("\n")[5]!;

  it("are the lab's private keys, by file name", () => {
    expect(secrets.map((s) => s.name)).toEqual(["pki/lab-approver.key"]);
  });

  it.each([
    ["the PEM", privateKey],
    ["kubeconfig's client-key-data", `    client-key-data: ${b64}\n`],
    ["one line of the key", `...${bodyLine}...`],
    ["a cut-off piece of client-key-data", b64.slice(100, 160)],
  ])("never reach a page: %s", (_what, leak) => {
    const r = toRecord(fixedResult({ step: 1, stdout: leak }), FIXED_RAN_AGAINST, secrets);
    const html = renderPage(r);
    for (const form of [b64, bodyLine, b64.slice(100, 160), privateKey.split("\n")[10]!]) expect(html).not.toContain(form);
    expect(html).toContain("[redacted: pki/lab-approver.key]");
    expect(r.redactions).toBeGreaterThan(0);
  });

  it("leave other base64 alone", () => {
    expect(redact("sha256:a8dd54e3c35d9f9a501255a32667a0b2c6c412df17214bc8fde6f5278bcede20", [secretOf("k", privateKey)])).toEqual({
      text: "sha256:a8dd54e3c35d9f9a501255a32667a0b2c6c412df17214bc8fde6f5278bcede20",
      count: 0,
    });
  });
});

describe("reproducing a run", () => {
  const script = reproduceScript(record());

  it("starts a lab, makes a namespace the simulator manages, and runs every step as its identity", () => {
    expect(script).toContain('eval "$(node lab/lab.mjs)"');
    expect(script).toContain('kubectl --context lab-admin label namespace "$NAMESPACE" lab.ptah.run/operator-simulator=enabled');
    expect(script).toContain("export KUBECONFIG=.lab/kubeconfigs/lab-approver.yaml\nkubectl ptah status storefront");
    expect(script).toContain('kubectl --context lab-admin -n "$NAMESPACE" wait ptahschema/storefront --for=condition=InSync=True --timeout=2m');
    for (const s of fixedResult().steps) expect(script).toContain(s.step.run.replace(/\n$/u, ""));
  });

  it("names the schema's database for psql, as the simulator names it, before the first psql step", () => {
    const exported = script.indexOf('export PGDATABASE="$NAMESPACE/storefront"');
    expect(exported).toBeGreaterThan(script.indexOf("export NAMESPACE="));
    expect(exported).toBeLessThan(script.indexOf('psql -c "\\d customers"'));
    expect(databaseName("ns", "storefront")).toBe("ns/storefront");
  });

  it("runs each read-only step again as lab-viewer, and no other", () => {
    const viewer = [...script.matchAll(/^\( export KUBECONFIG=\.lab\/kubeconfigs\/lab-viewer\.yaml.*\n(.*)/gmu)].map((m) => m[1]);
    expect(viewer).toEqual(
      fixedResult()
        .steps.filter((s) => s.viewer)
        .map((s) => s.step.run.split("\n")[0]),
    );
  });
});

describe("which steps are read-only", () => {
  const step = (run: string, as?: ScenarioStep["as"]): ScenarioStep => ({ note: "n", run, expect: { exit: 0 }, ...(as ? { as } : {}) });
  it.each([
    ['kubectl ptah status storefront -n "$NAMESPACE"', undefined, true],
    ['kubectl ptah diff storefront -n "$NAMESPACE" --from approval storefront-v1', undefined, true],
    ['kubectl -n "$NAMESPACE" get ptahschemaplan -l operator.ptah.run/schema=storefront', undefined, true],
    ['kubectl ptah approve storefront -n "$NAMESPACE"', undefined, true],
    ['kubectl ptah approve storefront -n "$NAMESPACE" --name x --dry-run=server', undefined, false],
    ['kubectl ptah acknowledge billing -n "$NAMESPACE" --dry-run server', undefined, false],
    ['kubectl ptah approve storefront -n "$NAMESPACE" --name x | kubectl create -f -', undefined, false],
    ['kubectl ptah acknowledge billing -n "$NAMESPACE" --name r | kubectl create -f -', undefined, false],
    ['kubectl -n "$NAMESPACE" patch ptahschema storefront --type=merge -p "{}"', undefined, false],
    ['kubectl -n "$NAMESPACE" get ptahschemaapproval a -o go-template=x | kubectl -n "$NAMESPACE" create -f -', undefined, false],
    ['kubectl --context lab-admin -n "$NAMESPACE" delete ptahschema storefront', undefined, false],
    ['kubectl -n "$NAMESPACE" get configmap storefront-database', "admin", false],
  ] as const)("%s (as %s): %s", (run, as, readOnly) => {
    expect(isReadOnlyStep(step(run, as), "approver")).toBe(readOnly);
  });

  it("every variable a scenario may declare has a meaning", () => {
    expect(KNOWN_VARIABLES.filter((v) => !VARIABLE_MEANINGS[v])).toEqual([]);
  });
});

describe("PostgreSQL in What it ran against", () => {
  it("is the version the lab's postgres.json names, else not in this lab", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-pg-"));
    expect(postgresVersion(dir)).toBeUndefined();
    expect(renderPage(record())).toContain("<dt>PostgreSQL</dt><dd>not in this lab</dd>");
    fs.writeFileSync(path.join(dir, "postgres.json"), JSON.stringify({ host: "127.0.0.1", port: 5999, user: "ptah", version: "15.14", dataDir: "x", pid: 1 }));
    const version = postgresVersion(dir);
    expect(version).toBe("15.14");
    expect(renderPage(toRecord(fixedResult(), { ...FIXED_RAN_AGAINST, postgres: version! }, []))).toContain("<dt>PostgreSQL</dt><dd>15.14</dd>");
  });
});
