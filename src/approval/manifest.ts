// Approval and acknowledgment manifests: exactly the identifiers a person chooses — never the fields the admission webhook stamps — with a comment header saying
// what is being approved. Names are deterministic (kubectl apply refuses generateName).
import { PTAH_API_VERSION } from "../model/api.ts";

export interface Ref {
  readonly name: string;
  readonly uid: string;
}

/** `<owner>-<first 12 hex of the digest>`, kept within a DNS subdomain's 253 characters. */
export function defaultName(owner: string, digest: string, infix = ""): string {
  const hex = digest.replace(/^sha256:/u, "").slice(0, 12);
  return `${owner.slice(0, 253 - hex.length - infix.length - 1)}${infix}-${hex}`;
}

export function schemaApprovalManifest(name: string, namespace: string, schema: Ref, plan: Ref, fingerprint: string): Record<string, unknown> {
  return {
    apiVersion: PTAH_API_VERSION,
    kind: "PtahSchemaApproval",
    metadata: { name, namespace },
    spec: { schemaRef: { name: schema.name, uid: schema.uid }, planRef: { name: plan.name, uid: plan.uid }, planFingerprint: fingerprint },
  };
}

export function migrationApprovalManifest(name: string, namespace: string, migration: Ref, plan: Ref, fingerprint: string): Record<string, unknown> {
  return {
    apiVersion: PTAH_API_VERSION,
    kind: "PtahMigrationApproval",
    metadata: { name, namespace },
    spec: { migrationRef: { name: migration.name, uid: migration.uid }, planRef: { name: plan.name, uid: plan.uid }, planFingerprint: fingerprint },
  };
}

export function acknowledgmentManifest(name: string, namespace: string, migration: Ref, operationID: string): Record<string, unknown> {
  return {
    apiVersion: PTAH_API_VERSION,
    kind: "PtahMigrationRunAcknowledgment",
    metadata: { name, namespace },
    spec: { migrationRef: { name: migration.name, uid: migration.uid }, operationID },
  };
}

/** `# ` comment lines; every value has been sanitised by the caller. */
export function commentBlock(lines: readonly string[]): string {
  return lines.map((l) => (l === "" ? "#" : `# ${l}`)).join("\n") + "\n";
}
