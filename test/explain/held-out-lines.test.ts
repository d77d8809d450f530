// Lines explain must not place: kubectl's own errors about other things, and the operator's
// messages with a word edited, dropped or moved. None may get a wrong topic: the answer is "no
// topic" (with suggestions), a list of candidates, or — for an edited message still found by its
// plain words — the topic of the message it was edited from. Nothing here is in the matcher's
// table: the unrelated lines are written for this test, the edits generated from the contract's
// messages (./contract-messages.ts).
import { wordEdits } from "../support/word-edits.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { placeText } from "../../src/explain/message-match.ts";
import { lookupTopic } from "../../src/explain/lookup.ts";
import { runCliWith } from "../support/cli.ts";
import { CASES } from "./contract-messages.ts";

/** kubectl's errors that name no message of the operator (some wrapped exactly like a refusal). */
const UNRELATED = [
  'Error from server (NotFound): ptahschemas.operator.ptah.run "storefront" not found',
  'error: the server doesn\'t have a resource type "ptahschemas"',
  'Error from server (Forbidden): ptahschemaapprovals.operator.ptah.run is forbidden: User "alice" cannot create resource "ptahschemaapprovals" in API group "operator.ptah.run" in the namespace "shop"',
  'The PtahSchemaApproval "storefront-abc" is invalid: spec.planFingerprint: Invalid value: "": spec.planFingerprint in body should match \'^sha256:[0-9a-f]{64}$\'',
  'Error from server (AlreadyExists): error when creating "STDIN": ptahschemaapprovals.operator.ptah.run "storefront-abc" already exists',
  'error: resource mapping not found for name: "storefront" namespace: "" from "STDIN": no matches for kind "PtahSchemaApproval" in version "operator.ptah.run/v1alpha1"',
  "The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?",
  "error: You must be logged in to the server (Unauthorized)",
  'Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "vapproval.operator.ptah.run": failed to call webhook: Post "https://ptah-operator-webhook.ptah-system.svc:443/validate": context deadline exceeded',
  'Error from server (Forbidden): error when creating "STDIN": admission webhook "vapproval.operator.ptah.run" denied the request: the approval is late for lunch',
  'Error from server (BadRequest): error when creating "STDIN": PtahSchemaApproval in version "v1alpha1" cannot be handled as a PtahSchemaApproval: strict decoding error: unknown field "spec.foo"',
  "Warning: resource ptahschemas/storefront is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply.",
  'Error from server (Conflict): Operation cannot be fulfilled on ptahschemas.operator.ptah.run "storefront": the object has been modified; please apply your changes to the latest version and try again',
  "error: timed out waiting for the condition on ptahschemas/storefront",
  "The ptahschemas \"storefront\" is invalid: : ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit' denied request: failed expression: object.spec.replicas <= 5",
  'Error from server (Forbidden): pods "ptah-apply-abc" is forbidden: exceeded quota: compute, requested: cpu=2, used: cpu=9, limited: cpu=10',
  'error: unable to read URL "approval.yaml", server reported 404 Not Found, status code=404',
  "error: error parsing STDIN: error converting YAML to JSON: yaml: line 3: mapping values are not allowed in this context",
  'Error from server (NotFound): namespaces "shop" not found',
  "Unable to connect to the server: x509: certificate signed by unknown authority",
  "error: one of -f or --filename is required",
  'error: unknown command "ptah" for "kubectl"',
  "Error: INSTALLATION FAILED: cannot re-use a name that is still in use",
  'Error from server (Forbidden): error when creating "STDIN": admission webhook "vpodintent.operator.ptah.run" denied the request: pod spec is not the one the operator rendered',
  "the plan changed after the approval was generated",
  "status is written only by the manager",
  "approval must identify the schema",
  "referenced plan",
  "spec.policy.apply: Always is set on this schema",
  'Error from server (Forbidden): error when creating "STDIN": admission webhook "vmigrationapproval.operator.ptah.run" denied the request: referenced migration is not ready to approve',
];

/** What explain answers for a line, as a topic id; undefined for "no topic" or a list of candidates. */
function answer(line: string): string | undefined {
  const placed = placeText(line);
  if (placed.length > 0) return placed[0]!.template.topic;
  const found = lookupTopic(line.replace(/\s+/gu, " ").trim());
  return found.kind === "found" ? found.entry.id : undefined;
}

const fillSample = (text: string): string =>
  text
    .replace(/%q/gu, '"shared-db"')
    .replace(/%d/gu, "3")
    .replace(/%s/gu, "op-7f3a")
    .replace(/…/gu, "not found")
    .replace(/<username>/gu, "alice")
    .replace(/<outcome>/gu, "Partial");

const canonical = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9%<>…' ]/gu, "")
    .replace(/\s+/gu, " ")
    .trim();
const KNOWN = new Set(CASES.map((c) => canonical(c.text)));

/** Every single-word edit of every message: a word replaced, dropped, or swapped with the next. */
function edits(): { line: string; from: string; topic: string }[] {
  const out: { line: string; from: string; topic: string }[] = [];
  for (const c of CASES) {
    for (const text of wordEdits(c.text, (word) => /%|…|</u.test(word))) {
      // An edit that turns one message into another is that other message, not a wrong answer.
      if (KNOWN.has(canonical(text)) || canonical(text) === canonical(c.text)) continue;
      out.push({ line: fillSample(text), from: c.text, topic: c.topic });
    }
  }
  return out;
}

describe("held-out lines get no wrong topic", () => {
  it.each(UNRELATED)("unrelated: %s", async (line) => {
    const r = await runCliWith(["explain", line], undefined);
    expect(r.stdout, r.stdout).toBe("");
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/^error: no topic "/u);
    expect(r.stderr.split("\n")).toHaveLength(2);
  });

  it("every edited message: no topic, or the topic of the message it was edited from", () => {
    const all = edits();
    expect(all.length).toBeGreaterThan(2000);
    const answers = all.map((e) => ({ ...e, got: answer(e.line) }));
    const wrong = answers.filter((a) => a.got !== undefined && a.got !== a.topic);
    expect(wrong.map((w) => `${w.line} → ${w.got} (from ${w.topic})`)).toEqual([]);
    // Edited lines are mostly not answered at all: the matcher places whole messages only.
    expect(answers.filter((a) => a.got !== undefined).length).toBeLessThan(all.length / 10);
  });

  it("the same through the CLI, on a sample: stdout empty and one error line, or the right topic", async () => {
    const all = edits();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...all), async (e) => {
        const r = await runCliWith(["explain", e.line], undefined);
        if (r.status === 3) {
          expect(r.stdout).toBe("");
          expect(r.stderr).toMatch(/^error: no topic "[^\n]*\n$/u);
        } else {
          expect(r.status).toBe(0);
          const topic = /^Topic: +(\S+)$/mu.exec(r.stdout)?.[1];
          if (topic !== undefined) expect(topic).toBe(e.topic);
        }
      }),
      { numRuns: 120 },
    );
  });
});
