// The plan document and the binding fields as the operator writes them:
// Go's compact JSON of the document, deterministic fake UIDs and digests, and a realistic default
// for every binding field. test/support/publish-plan.ts builds the published objects from them.
import { canonicalJSON, struct, type CanonicalValue } from "../../src/plan/canonical.ts";
import type { SchemaPlanBinding } from "../../src/plan/fingerprint.ts";
import type { ManagedRows } from "../../src/plan/document.ts";
import { createHash } from "node:crypto";

export const API_VERSION = "operator.ptah.run/v1alpha1";

export interface StatementInput {
  readonly sql: string;
  readonly severity?: string;
  readonly reason?: string;
}

/** A managed-rows description, as the document carries it. */
export type ManagedRowsInput = ManagedRows;

/**
 * The binding fields a plan spec records — the fingerprint's inputs that are not derived from
 * the schema or the document — plus the record-only images; every one has a realistic default.
 */
export type PlanBindingFields = Omit<SchemaPlanBinding, "schemaUID" | "planContentDigest" | "destructive" | "privilegeChanges" | "statementCount"> & {
  readonly controllerImage: string;
  readonly controllerRevision: string;
  readonly runnerImage: string;
};

export function hex(seed: string, length = 64): string {
  let out = "";
  for (let i = 0; out.length < length; i++) out += createHash("sha256").update(`${seed}#${i}`).digest("hex");
  return out.slice(0, length);
}

/** A deterministic RFC 4122-shaped UID. */
export function fakeUID(seed: string): string {
  const h = hex(`uid:${seed}`, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function fakeDigest(seed: string): string {
  return `sha256:${hex(`digest:${seed}`)}`;
}

export function defaultBinding(seed: string): PlanBindingFields {
  return {
    contractVersion: 1,
    artifactDigest: fakeDigest(`${seed}/artifact`),
    coordinationDigest: fakeDigest(`${seed}/coordination`),
    targetIdentityDigest: fakeDigest(`${seed}/target`),
    actualStateFingerprint: fakeDigest(`${seed}/actual`),
    desiredStateFingerprint: fakeDigest(`${seed}/desired`),
    policyFingerprint: fakeDigest(`${seed}/policy`),
    verificationPolicyUID: fakeUID(`${seed}/verification-policy`),
    verificationPolicyDigest: fakeDigest(`${seed}/verification-policy`),
    executionBindingID: `v1-${hex(`${seed}/epoch`, 32)}`,
    controllerImage: `ghcr.io/stokaro/ptah-operator@${fakeDigest("controller-image")}`,
    controllerRevision: "v0.4.0",
    controllerStateVersion: 2,
    ptahVersion: "v0.3.0",
    executorImage: `ghcr.io/stokaro/ptah@${fakeDigest("executor-image")}`,
    runnerImage: `ghcr.io/stokaro/ptah-runner@${fakeDigest("runner-image")}`,
    runnerProtocolVersion: 1,
  };
}

/** The document as the operator serializes it: Go's compact JSON and a trailing newline. */
export function serializePlanDocument(fields: {
  name: string;
  dialect: string;
  fromFingerprint: string;
  toFingerprint: string;
  exclude?: readonly string[] | undefined;
  managedRows?: readonly ManagedRowsInput[] | undefined;
  rowsFingerprint?: string | undefined;
  destructive: boolean;
  statements: readonly StatementInput[];
}): string {
  const entries: [string, CanonicalValue][] = [
    ["format_version", 1],
    ["name", fields.name],
    ["dialect", fields.dialect],
    ["from_fingerprint", fields.fromFingerprint],
    ["to_fingerprint", fields.toFingerprint],
  ];
  if (fields.exclude && fields.exclude.length > 0) entries.push(["exclude", [...fields.exclude]]);
  if (fields.managedRows && fields.managedRows.length > 0) {
    entries.push([
      "managed_rows",
      fields.managedRows.map((m) =>
        struct([...(m.schema ? ([["schema", m.schema]] as [string, CanonicalValue][]) : []), ["table", m.table], ["keys", [...m.keys]], ["columns", [...m.columns]]]),
      ),
    ]);
    entries.push(["rows_fingerprint", fields.rowsFingerprint ?? fakeDigest("rows")]);
  }
  entries.push(["destructive", fields.destructive]);
  entries.push([
    "statements",
    fields.statements.map((s) =>
      struct([
        ["sql", s.sql],
        ["severity", s.severity ?? "safe"],
        ["reason", s.reason ?? ""],
      ]),
    ),
  ]);
  return canonicalJSON(struct(entries)) + "\n";
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}
