// The rows of the checks' mutation table (test/mutation/checks.test.ts): for each check, one
// change that disables it (or one part of it), the test files that guard it, and the test that
// must go red. `from` must occur exactly once in the module as it is.
import type { Mutant } from "./mutant.config.ts";

export interface Row {
  /** What the mutant breaks. */
  readonly name: string;
  readonly mutant: Mutant;
  /** The test files run against the mutant, relative to the repository. */
  readonly tests: readonly string[];
  /**
   * Part of the full name of a test that must fail under the mutant (vitest cuts a `$name` of
   * it.each to 37 characters and escapes quotes, so a tampering case is named by its beginning).
   */
  readonly red: string;
}

const EXPORT_CHECKS = ["test/plan/export-checks.test.ts"];
const TOLERANCE = ["test/guarantees/tolerance-every-list.test.ts"];
const TAMPERING = ["test/plan/tampering.test.ts"];

export const ROWS: readonly Row[] = [
  // The export's own checks (plan --verify -f FILE), src/plan/export.ts checkExtras.
  {
    name: "export: document bytes not compared with the chunks",
    mutant: { file: "src/plan/export.ts", from: "Buffer.compare(held, Buffer.from(v.documentBytes)) !== 0) {", to: "false) {" },
    tests: EXPORT_CHECKS,
    red: "document bytes: other bytes than the chunks reconstruct",
  },
  {
    name: "export: stated size and digest of the document bytes not checked",
    mutant: { file: "src/plan/export.ts", from: "if (doc!.size !== held.length || doc!.digest !== digestBytes(held)) log.fail", to: "if (false) log.fail" },
    tests: EXPORT_CHECKS,
    red: "document bytes: the chunks' own bytes, stated with a size one byte longer",
  },
  {
    name: "export: fingerprint inputs not compared with the plan's",
    mutant: {
      file: "src/plan/export.ts",
      from: "JSON.stringify(body.fingerprintInputs) !== JSON.stringify(inputs) || body.fingerprint !== v.fingerprint || digestSchemaPlanBinding(inputs) !== v.fingerprint",
      to: "false",
    },
    tests: EXPORT_CHECKS,
    red: "fingerprint inputs: an input the plan does not have",
  },
  {
    name: "export: approvals not required to name this plan",
    mutant: {
      file: "src/plan/export.ts",
      from: "a.spec.planRef?.name !== plan.metadata.name || a.spec.planRef.uid !== plan.metadata.uid || a.spec.planFingerprint !== v.fingerprint",
      to: "false",
    },
    tests: EXPORT_CHECKS,
    red: "approvals: an approval naming another plan's name",
  },
  {
    name: "export: every approval of the namespace written, not only those naming the plan",
    mutant: { file: "src/commands/plan/plan-export.ts", from: "a.object.spec.planRef?.name === plan.plan.object.metadata.name && a.object.spec.planRef.uid === uid", to: "true" },
    tests: EXPORT_CHECKS,
    red: "holds only the approvals naming this plan by name and UID",
  },
  // Tolerance: one warning per object that does not fit the model.
  {
    name: "ledger: not-shown warnings of the migration kinds dropped",
    mutant: {
      file: "src/commands/ledger/ledger-command.ts",
      from: "  warnings.push(notShownWarnings([listed]));",
      to: '  if (!kind.startsWith("PtahMigration")) warnings.push(notShownWarnings([listed]));',
    },
    tests: TOLERANCE,
    red: "ledger (the migration kinds)",
  },
  {
    name: "inbox: not-shown warnings of migrations dropped",
    mutant: { file: "src/commands/inbox/inbox-command.ts", from: "warnings: notShownWarnings([schemas, migrations])", to: "warnings: notShownWarnings([schemas])" },
    tests: TOLERANCE,
    red: "inbox (a migration)",
  },
  {
    name: "status -w on a terminal: not-shown warnings not written after a redraw",
    mutant: { file: "src/commands/status/status-watch.ts", from: "    for (const m of notShownByKey.values()) ctx.log?.(m.line);\n", to: "" },
    tests: TOLERANCE,
    red: "after every redraw, one warning line per object that does not fit",
  },
  // plan's checks (src/plan/verify.ts, verify-chunks.ts, load.ts), as plan and diff make them.
  {
    name: "plan: the plan object's UID not compared with the record's",
    mutant: { file: "src/plan/verify.ts", from: "  if (uid !== record.planUID) {", to: "  if (false) {" },
    tests: TAMPERING,
    red: "the plan recreated under the same",
  },
  {
    name: "plan: fingerprint not recomputed against spec.fingerprint",
    mutant: { file: "src/plan/verify.ts", from: "  if (recomputed !== stated) {", to: "  if (false) {" },
    tests: [...TAMPERING, "test/plan/export.test.ts"],
    red: "a binding field changed after",
  },
  {
    name: "plan: chunk digest not compared with the manifest's",
    mutant: { file: "src/plan/verify-chunks.ts", from: "digestBytes(bytes) !== slot.digest", to: "false" },
    tests: TAMPERING,
    red: "one flipped byte at 0 of chunk 0",
  },
  {
    name: "plan: chunk owner reference's UID not compared with the plan's",
    mutant: { file: "src/plan/verify-chunks.ts", from: "    owner.uid === plan.metadata.uid &&\n", to: "" },
    tests: TAMPERING,
    red: "an owner reference with another plan",
  },
  {
    name: "plan: the loader skips the chunk object checks (UID, labels, owner)",
    mutant: { file: "src/plan/load.ts", from: "    verifyChunkObject(log, p, slot, chunk.meta);\n", to: "" },
    tests: TAMPERING,
    red: "an owner reference naming another",
  },
  {
    name: "plan: the whole document's digest not compared with spec.contentDigest",
    mutant: { file: "src/plan/verify-chunks.ts", from: " || digest !== plan.spec.contentDigest", to: "" },
    tests: TAMPERING,
    red: "a chunk rewritten together with",
  },
  {
    name: "diff --from approval: the approval's schema UID not compared",
    mutant: { file: "src/commands/diff/diff-command.ts", from: " || ref.uid !== schema.metadata.uid", to: "" },
    tests: ["test/commands/diff/diff.test.ts"],
    red: "an approval that binds another schema, naming the side",
  },
  // approve: the approval bound to the plan verified (src/approval/manifest.ts, commands/shared/approval-reads.ts).
  {
    name: "approve: the schema approval's planRef without the plan's UID",
    mutant: {
      file: "src/approval/manifest.ts",
      from: "uid: schema.uid }, planRef: { name: plan.name, uid: plan.uid }",
      to: 'uid: schema.uid }, planRef: { name: plan.name, uid: "" }',
    },
    tests: ["test/commands/approve/approve.test.ts"],
    red: "prints a manifest bound to schema, plan and the verified fingerprint",
  },
  {
    name: "approve: the schema approval without the verified fingerprint",
    mutant: {
      file: "src/approval/manifest.ts",
      from: "uid: schema.uid }, planRef: { name: plan.name, uid: plan.uid }, planFingerprint: fingerprint",
      to: 'uid: schema.uid }, planRef: { name: plan.name, uid: plan.uid }, planFingerprint: ""',
    },
    tests: ["test/commands/approve/approve.test.ts"],
    red: "prints a manifest bound to schema, plan and the verified fingerprint",
  },
  {
    name: "approve: the migration approval's planRef without the plan's UID",
    mutant: {
      file: "src/approval/manifest.ts",
      from: "uid: migration.uid }, planRef: { name: plan.name, uid: plan.uid }",
      to: 'uid: migration.uid }, planRef: { name: plan.name, uid: "" }',
    },
    tests: ["test/commands/approve/approve.test.ts"],
    red: "prints a migration approval bound to the plan",
  },
  {
    name: "approve: the last schema read's plan UID not compared with the plan verified",
    mutant: { file: "src/commands/shared/approval-reads.ts", from: "now?.uid !== plan.metadata.uid || ", to: "" },
    tests: ["test/commands/approve/approve-binding.test.ts"],
    red: "the plan recreated under the same name (another UID)",
  },
  {
    name: "approve: the last schema read's fingerprint not compared with the one verified",
    mutant: { file: "src/commands/shared/approval-reads.ts", from: "now?.fingerprint !== verified.fingerprint || ", to: "" },
    tests: ["test/commands/approve/approve-binding.test.ts"],
    red: "another fingerprint recorded for the same plan",
  },
  {
    name: "approve migration: the migration plan's UID not compared with the one the migration names",
    mutant: { file: "src/plan/migration-plan.ts", from: "  if (plan.metadata.uid !== ref?.uid) {", to: "  if (false) {" },
    tests: ["test/commands/approve/approve-migration-binding.test.ts"],
    red: "a plan with another UID than the migration names",
  },
  {
    name: "approve migration: the last migration read's plan UID not compared with the first's",
    mutant: { file: "src/commands/approve/approve-command.ts", from: "last.status.plan?.uid !== first.status.plan?.uid || ", to: "" },
    tests: ["test/commands/approve/approve-migration-binding.test.ts"],
    red: "a migration that names another plan (UID) on its last read",
  },
  // The lock analyser (src/locks/): SET NOT NULL skips its scan only when the plan proves the column not null.
  {
    name: "locks: SET NOT NULL said to skip its scan whatever the plan proves",
    mutant: { file: "src/locks/alter.ts", from: "const proven = known.provenNotNull(table, column);", to: "const proven = true;" },
    tests: ["test/locks/rules.test.ts"],
    red: "ALTER TABLE orders ALTER COLUMN total SET NOT NULL (after [])",
  },
  // doctor's stuck resources row: a stuck object is a warning, never doctor's failure; a refused cluster-wide list narrows.
  {
    name: "doctor: a warning fails doctor like a problem",
    mutant: { file: "src/commands/doctor/doctor-command.ts", from: 'view.checks.some((c) => c.status === "problem")', to: 'view.checks.some((c) => c.status !== "ok")' },
    tests: ["test/commands/doctor/doctor-stuck.test.ts"],
    red: "counts what status --stuck lists, in every namespace",
  },
  {
    name: "doctor: a refused cluster-wide list of stuck objects not narrowed to the namespace",
    mutant: { file: "src/commands/doctor/doctor-stuck.ts", from: "    if (!forbidden(err)) return fail(err);", to: "    return fail(err);" },
    tests: ["test/commands/doctor/doctor-stuck.test.ts"],
    red: "refused in every namespace, reads doctor's own and says so",
  },
  // Independent reads at once (a fake cluster holds each answer until the others arrive, test/support/held-reads.ts).
  {
    name: "status SCHEMA: the approvals LIST waits for the schema's answer",
    mutant: {
      file: "src/commands/status/status-command.ts",
      from: "const schemaRead = loadSchema(connection, name);",
      to: "const schemaRead = loadSchema(connection, name);\n  await schemaRead.catch(() => {});",
    },
    tests: ["test/commands/status/status-parallel.test.ts"],
    red: "has the schema's GET and the approvals LIST in flight together",
  },
  {
    name: "approve: the four-eyes reads wait for the plan's verification",
    mutant: { file: "src/commands/approve/approve-command.ts", from: 'const early = o.dryRun === "server" ? undefined :', to: "const early = true ? undefined :" },
    tests: ["test/commands/approve/approve-parallel.test.ts"],
    red: "has the plan's GET, the switch and who you are in flight together",
  },
  {
    name: "inbox: who you are asked after the switch is read",
    mutant: {
      file: "src/commands/inbox/inbox-command.ts",
      from: "const meRead = needed ? whoYouAre(c.reader)",
      to: "const meRead = needed ? switchRead.then(() => whoYouAre(c.reader))",
    },
    tests: ["test/commands/inbox/inbox-parallel.test.ts"],
    red: "has the SelfSubjectReview and the switch's read in flight together",
  },
  // A fleet's bound (src/commands/shared/fleet.ts) and the connect bounds under it (src/kube/connect-deadline.ts).
  {
    name: "fleet: every context read at once, --max-concurrent-contexts ignored",
    mutant: {
      file: "src/commands/shared/fleet.ts",
      from: "Array.from({ length: Math.min(choice.concurrency, names.length) }, worker)",
      to: "Array.from({ length: names.length }, worker)",
    },
    tests: ["test/commands/shared/fleet-concurrency.test.ts"],
    red: "reads at most --max-concurrent-contexts contexts at once",
  },
  {
    name: "transport: a connection's TLS handshake not bounded",
    mutant: { file: "src/kube/http.ts", from: '      boundConnect(req, url.protocol === "https:");', to: "" },
    tests: ["test/kube/connect-deadline.test.ts"],
    red: "the TLS handshake's limit ends it",
  },
];
