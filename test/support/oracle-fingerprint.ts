// The fingerprint the test fixtures publish (test/support/publish-plan.ts), computed by the Go
// oracle (test/oracle/fingerprint: encoding/json, stdlib only) rather than by the plugin's own
// src/plan/fingerprint.ts, so that every test where the plugin recomputes a fixture's fingerprint
// checks it against an implementation that is not its own. One long-running oracle process per
// test worker, asked synchronously (test/oracle/sync.ts, ~0.2 ms a call against ~3-4 ms for a
// process per call); answers are kept per distinct binding. Without Go (and no oracle built) the
// fixtures fall back to the plugin's digest with one line saying so; under CI that is a failure.
// The lab's operator simulator is a bundle (.lab/sim.mjs) and keeps the plugin's digest: see below.
import { digestSchemaPlanBinding, type SchemaPlanBinding } from "../../src/plan/fingerprint.ts";
import { buildOracle, oracleSourcesHere } from "../oracle/build.ts";
import { askOracleSync } from "../oracle/sync.ts";
import { skipNote, toolsRequired } from "./machine-tools.ts";

let available: boolean | undefined;
const answers = new Map<string, string>();

function oracleAvailable(): boolean {
  if (available !== undefined) return available;
  // A bundled copy (the lab's operator simulator, .lab/sim.mjs; the bench's bundle) has no
  // sources to build from: it publishes with the plugin's digest, as before, and says so once.
  if (!oracleSourcesHere("fingerprint")) {
    process.stderr.write("[fixtures] plan fingerprints from the plugin's own code: this bundled copy has no test/oracle/fingerprint beside it\n");
    return (available = false);
  }
  try {
    buildOracle("fingerprint");
    available = true;
  } catch (err) {
    if (toolsRequired()) throw new Error(`the fixtures' fingerprint oracle cannot be built: ${(err as Error).message} (${skipNote("go")})`, { cause: err });
    process.stderr.write(`[fixtures] plan fingerprints from the plugin's own code, not the Go oracle: ${skipNote("go")}\n`);
    available = false;
  }
  return available;
}

/** The binding as a served PtahSchemaPlan spec states it (the oracle's input). */
function specOf(b: SchemaPlanBinding): Record<string, unknown> {
  return {
    contractVersion: b.contractVersion,
    schemaRef: { uid: b.schemaUID },
    contentDigest: b.planContentDigest,
    artifactDigest: b.artifactDigest,
    coordinationDigest: b.coordinationDigest,
    targetIdentityDigest: b.targetIdentityDigest,
    actualStateFingerprint: b.actualStateFingerprint,
    desiredStateFingerprint: b.desiredStateFingerprint,
    policyFingerprint: b.policyFingerprint,
    verificationPolicyUID: b.verificationPolicyUID,
    verificationPolicyDigest: b.verificationPolicyDigest,
    executionBindingID: b.executionBindingID,
    controllerStateVersion: b.controllerStateVersion,
    ptahVersion: b.ptahVersion,
    executorImage: b.executorImage,
    runnerProtocolVersion: b.runnerProtocolVersion,
    destructive: b.destructive,
    privilegeChanges: b.privilegeChanges,
    statementCount: b.statementCount,
  };
}

/** The fingerprint of `binding` as the operator would hash it (without its validation). */
export function publishedFingerprint(binding: SchemaPlanBinding): string {
  if (!oracleAvailable()) return digestSchemaPlanBinding(binding);
  const line = JSON.stringify(specOf(binding));
  const known = answers.get(line);
  if (known) return known;
  const a = askOracleSync<{ decoded: boolean; digest?: string; error?: string }>("fingerprint", JSON.parse(line));
  if (!a.decoded || !a.digest) throw new Error(`the fingerprint oracle could not read a fixture's binding: ${a.error ?? "no digest"}: ${line}`);
  answers.set(line, a.digest);
  return a.digest;
}
