// `explain` on what people hold: a refusal pasted whole (as an argument or on standard input), the
// FAQ's symptom words, the stuck words, the alerts and metrics that page on-call, HistoryRead, a
// phase word written as Ready's reason, and "exclusive" (a lock mode and a realm's sharing).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { aSchema, cond } from "../../support/builders.ts";
import { expectGolden } from "../../support/golden.ts";

const FOUR_EYES =
  'Error from server (Forbidden): error when creating "STDIN": admission webhook "vapproval.operator.ptah.run" denied the request: schema requires a distinct approver, and alice last changed its spec';
const GUARD =
  "The ptahmigrations \"billing\" is invalid: : ValidatingAdmissionPolicy 'ptah-manager-state-guard' with binding 'ptah-manager-state-guard' denied request: Ptah status is written only by the operator's manager; settle an unresolved migration run with a PtahMigrationRunAcknowledgment";
const REALM =
  'The PtahRealm "orders-db" does not admit this resource: it does not exist, it does not list namespace "team-a", or it names another engine. Nothing runs against the database until an administrator admits the namespace, and this resource is not counted against the ones the realm does admit.';

function stdin(text: string): AsyncIterable<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return (async function* () {
    // Two chunks, split inside a character's bytes: the paste is decoded whole.
    yield bytes.subarray(0, 7);
    yield bytes.subarray(7);
  })();
}

describe("explain a pasted line", () => {
  it("four-eyes, as kubectl prints the webhook's refusal", async () => {
    const r = await runCliWith(["explain", FOUR_EYES], undefined);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "explain/paste-four-eyes.txt");
  });

  it("the manager-state guard, as kubectl prints a policy's refusal", async () => {
    const r = await runCliWith(["explain", GUARD], undefined);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "explain/paste-manager-state-guard.txt");
  });

  it("a realm condition message with its names", async () => {
    const r = await runCliWith(["explain", REALM], undefined);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "explain/paste-realm.txt");
  });

  it("takes the words of an unquoted paste as the shell split them", async () => {
    const r = await runCliWith(["explain", ...FOUR_EYES.replace(/"/gu, "").split(" ")], undefined);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^self-approval \(refused by admission webhook vapproval\.operator\.ptah\.run\)\n/u);
    expect(r.stdout).toContain("Names:       user alice\n");
  });

  it("reads the kind word however it is written (PtahMigration, Migration, migration)", async () => {
    const r = await runCliWith(["explain", "-o", "json", "PtahMigration requires a distinct approver, and bob last changed its spec"], undefined);
    const [answer] = JSON.parse(r.stdout) as { topic: string; slots: Record<string, string>; next: { command: string }[] }[];
    expect(answer).toMatchObject({ topic: "concept/self-approval", slots: { kind: "migration", user: "bob" } });
    expect(answer!.next[0]!.command).toBe("kubectl ptah migration <migration>");
  });

  it("reads several lines from standard input with -, and answers each line it places", async () => {
    const paste = ["$ kubectl apply -f approvals/", "ptahschemaapproval.operator.ptah.run/one created", FOUR_EYES, "  ", GUARD, ""].join("\n");
    const r = await runCliWith(["explain", "-", "-o", "name"], undefined, { input: stdin(paste) });
    expect(r).toMatchObject({ status: 0, stderr: "", stdout: "concept/self-approval\nconcept/manager-only-status\n" });
  });

  it("places a long line a terminal wrapped over two lines", async () => {
    const r = await runCliWith(["explain", "-", "-o", "name"], undefined, { input: stdin(REALM.replace(" Nothing runs", "\nNothing runs")) });
    expect(r.stdout).toBe("reason/realm-not-authorized\n");
  });

  it("answers a topic word from standard input as from an argument", async () => {
    const r = await runCliWith(["explain", "-", "-o", "name"], undefined, { input: stdin("stale\n") });
    expect(r.stdout).toBe("approval-state/stale\n");
  });

  it("refuses an empty standard input in one line", async () => {
    const r = await runCliWith(["explain", "-"], undefined, { input: stdin("\n") });
    expect(r).toMatchObject({ status: 2, stdout: "" });
    expect(r.stderr).toMatch(/^error: explain -: standard input was empty \(see 'kubectl ptah explain -h' for help and examples\)\n$/u);
  });

  it("gives a line it cannot place no topic, with the nearest topics, in one error line", async () => {
    const r = await runCliWith(["explain", "error: referenced plan is being removed by the garbage collector"], undefined);
    expect(r).toMatchObject({ status: 3, stdout: "" });
    await expectGolden(r.stderr, "explain/paste-unplaced.txt");
  });

  it("puts a name from the line into a command only when it is an object name", async () => {
    const r = await runCliWith(["explain", "-o", "json", REALM.replace('"orders-db"', '"orders db; rm -rf ~"')], undefined);
    const [answer] = JSON.parse(r.stdout) as { slots: { realm: string }; next: { command: string }[] }[];
    expect(answer!.slots.realm).toBe("orders db; rm -rf ~");
    expect(answer!.next[0]!.command).toBe("kubectl get ptahrealm <realm> -o yaml");
  });

  it("sanitises names from the line in the text it prints", async () => {
    const r = await runCliWith(["explain", FOUR_EYES.replace("alice", "al\u001b[2Jice")], undefined);
    expect(r.stdout).not.toContain("\u001b");
    expect(r.stdout).toContain("Names:       user al^[[2Jice\n");
  });
});

describe("explain on any paste", () => {
  it("answers or refuses in one line, and prints no control character", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.string({ unit: "binary", maxLength: 80 }), fc.constantFrom(FOUR_EYES, GUARD, REALM, "error: ", "denied the request: ")), { maxLength: 4 }),
        async (parts) => {
          const r = await runCliWith(["explain", "-"], undefined, { input: stdin(parts.join("\n")) });
          expect([0, 2, 3]).toContain(r.status);
          expect(r.stdout.replace(/\n/gu, "")).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/u);
          if (r.status !== 0) {
            expect(r.stdout).toBe("");
            expect(r.stderr).toMatch(/^error: [^\n]*\n$/u);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reads a line of a mebibyte without stalling on it", async () => {
    const line = `${"x ".repeat(300_000)}acknowledged the`;
    const started = Date.now();
    const r = await runCliWith(["explain", "-"], undefined, { input: stdin(line) });
    expect(r.status).toBe(3);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("explain the words people arrive with", () => {
  const STUCK = "kubectl ptah status -A --stuck";
  it.each([
    ["approval rejected", "concept/approval-refused", "kubectl ptah inbox -A"],
    ["nothing applies", "concept/nothing-applies", "kubectl ptah status -A"],
    ["tables still there", "concept/tables-still-there", "kubectl ptah status -A"],
    ["registry auth fails", "concept/registry-auth-fails", "kubectl ptah status -A"],
    ["status Unknown", "concept/status-unknown", "kubectl ptah status -A"],
    ["digest refused", "concept/digest-refused", "kubectl ptah status -A"],
    ["plan too large", "concept/plan-too-large", "kubectl ptah status -A"],
    ["install fails", "concept/install-fails", "kubectl get crd ptahschemas.operator.ptah.run ptahmigrations.operator.ptah.run"],
    ["read a plan", "concept/read-a-plan", "kubectl ptah inbox -A"],
    ["overdue", "concept/overdue", STUCK],
    ["late", "concept/overdue", STUCK],
    ["stalled", "concept/stalled", STUCK],
    ["lock release owed", "concept/lock-release-owed", STUCK],
    ["PtahOperatorUnresolvedApply", "concept/unresolved-apply-alert", STUCK],
    ["PtahOperatorUnresolvedViewNotSynced", "concept/unresolved-view-alerts", STUCK],
    ["PtahOperatorUnresolvedViewReadFailures", "concept/unresolved-view-alerts", STUCK],
    ["ptah_operator_unresolved_attempts", "concept/unresolved-apply-alert", STUCK],
    ["ptah_operator_overdue_resources", "concept/overdue", STUCK],
    ["ptah_operator_active_operation_seconds", "concept/stalled", STUCK],
    ["ptah_operator_pending_lock_releases", "concept/lock-release-owed", STUCK],
    ["ptah_operator_webhook_certificate_expiry_timestamp_seconds", "concept/webhook-certificate", "kubectl ptah status -A"],
    ["ptah_operator_webhook_certificate_read_failures_total", "concept/webhook-certificate", "kubectl ptah status -A"],
    ["ptah_operator_result_cleanup_operations_total", "concept/result-cleanup", "kubectl ptah status -A"],
    ["HistoryRead", "concept/history-read", STUCK],
  ])("%s → %s, ending with %s", async (words, id, last) => {
    const r = await runCliWith(["explain", ...words.split(" "), "-o", "json"], undefined);
    expect(r.status, r.stderr).toBe(0);
    const topic = JSON.parse(r.stdout) as { id: string; next: { command: string }[] };
    expect(topic.id).toBe(id);
    expect(topic.next.at(-1)?.command).toBe(last);
  });

  it("explains exclusive as the lock mode and names the realm's sharing first", async () => {
    const r = await runCliWith(["explain", "exclusive"], undefined);
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "explain/exclusive.txt");
  });

  it("explains the realm's Exclusive by its own words", async () => {
    const r = await runCliWith(["explain", "sharing", "Exclusive", "-o", "name"], undefined);
    expect(r.stdout).toBe("concept/realm-sharing\n");
  });

  it("answers a phase word asked for as a reason with the phase, which says so", async () => {
    const r = await runCliWith(["explain", "reason", "Observing"], undefined);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Observing \(phase of PtahSchema\)\n/u);
    expect(r.stdout).toContain("Ready's reason");
  });

  it("tells a phase word written as Ready's reason as a running operation, not an unknown reason", async () => {
    const schema = aSchema({ phase: "Observing", conditions: [cond("Ready", "False", "Observing", "The database is being observed")] });
    const r = await runCliWith(["explain", "storefront", "-n", "app"], new FakeReader([{ kind: "PtahSchema", raw: schema }]));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("Reason:     Observing is a phase word, not a condition reason: an operation is running (phase Observing:");
  });
});
