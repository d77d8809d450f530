// The plan command's export (loaded only for --export and -f: it brings the model's parser): a
// plan's export to a new file (the objects exactly as verified, read through a recording reader),
// signed with --sign KEY to FILE.sig, and `--verify -f`, which re-verifies an export offline and,
// with --allowed-signers, who signed it. The file system is the shell's (ctx.readBytes, writeNewFile).
import { PtahError, ReadError, RefusalError, UsageError, VerificationError } from "../../errors.ts";
import type { ClusterReader } from "../../kube/types.ts";
import { buildExport, EXPORT_BOUND, MAX_EXPORT_BYTES, recordingReader, verifyExport, type ServedObject } from "../../plan/export.ts";
import type { VerifiedPlan } from "../../plan/load.ts";
import { parsePrivateKey } from "../../plan/ssh-private-key.ts";
import { PLAN_SIGNATURE_NAMESPACE, signMessage, verifySignature } from "../../plan/ssh-signature.ts";
import { fingerprintOf, keyTypeLabel } from "../../plan/ssh-wire.ts";
import { CheckLog, type CheckResult } from "../../plan/verify.ts";
import { loadChosen, type PlanChoice } from "./plan-choice.ts";
import { sanitize } from "../../render/sanitize.ts";
import { renderVerifyReport } from "./plan-text.ts";
import type { CommandResult, RunContext } from "../command-types.ts";

/** The approvals naming the plan, as served; undefined (and a warning) when they may not be listed. */
async function approvalsOf(reader: ClusterReader, namespace: string, plan: VerifiedPlan): Promise<{ approvals: Record<string, unknown>[] | undefined; warning: string }> {
  try {
    const listed = await reader.list("PtahSchemaApproval", { namespace, keepRaw: true });
    const uid = plan.plan.object.metadata.uid;
    const mine = listed.items.filter((a) => a.object.spec.planRef?.name === plan.plan.object.metadata.name && a.object.spec.planRef.uid === uid);
    return { approvals: mine.map((a) => a.raw), warning: "" };
  } catch (err) {
    if (err instanceof ReadError && err.httpStatus === 403) return { approvals: undefined, warning: `Warning: the export holds no approvals: ${err.message}\n` };
    throw err;
  }
}

/** --sign KEY with --export; --allowed-signers FILE, --signature SIGFILE and --signer PRINCIPAL with --verify -f. */
export interface ExportSigning {
  readonly key?: string | undefined;
  readonly allowedSigners?: string | undefined;
  readonly signature?: string | undefined;
  /** The principal that must have signed (ssh-keygen -Y verify's -I). */
  readonly signer?: string | undefined;
}

/**
 * `--export FILE [--sign KEY]`: verify exactly as `plan` does, then write what was verified to a
 * new file and, with a key, its signature to FILE.sig. The key is read first, so a key this
 * plugin cannot sign with refuses before anything is read or written.
 */
export async function exportPlan(schemaName: string, choice: PlanChoice, file: string, signing: ExportSigning, ctx: RunContext): Promise<CommandResult> {
  if (!ctx.writeNewFile || !ctx.readBytes) throw new UsageError("--export needs a file system");
  const key = signing.key === undefined ? undefined : parsePrivateKey(ctx.readBytes(signing.key, MAX_SIDE_FILE_BYTES, SIDE_FILE_BOUND), signing.key);
  const sigFile = `${file}.sig`;
  if (key) refuseExisting(sigFile, (path) => ctx.readBytes!(path, MAX_SIDE_FILE_BYTES, SIDE_FILE_BOUND));
  const { reader, namespace } = await ctx.connect();
  const served: ServedObject[] = [];
  const verified = await loadChosen(recordingReader(reader, served), namespace, schemaName, choice, new CheckLog());
  const { approvals, warning } = await approvalsOf(reader, namespace, verified);
  const text = buildExport({ verified, served, approvals, exportedAt: ctx.now.toISOString(), exportedBy: `kubectl-ptah ${ctx.version}` });
  ctx.writeNewFile(file, text);
  // What is signed is the bytes just written, not a second read of the file.
  if (key) ctx.writeNewFile(sigFile, signMessage(new TextEncoder().encode(text), key, PLAN_SIGNATURE_NAMESPACE));
  const name = verified.plan.object.metadata.name;
  const count = approvals === undefined ? "" : `, ${approvals.length} approval${approvals.length === 1 ? "" : "s"}`;
  const signed = key ? `, signed in ${sigFile} with ${keyTypeLabel(key.type)} key ${fingerprintOf(key.publicBlob)}` : "";
  const line = `ptahschemaplan/${name} exported to ${file} (${verified.documentBytes.length} bytes, fingerprint ${verified.fingerprint}${count})${signed}`;
  return { kind: "printed", stdout: `${sanitize(line)}\n`, ...(warning ? { stderr: warning } : {}) };
}

/** A key, a signature or an allowed signers file: a few KB each; a MiB is far past any of them. */
const MAX_SIDE_FILE_BYTES = 1024 * 1024;
const SIDE_FILE_BOUND = "a key, a signature or an allowed signers file is at most 1048576 bytes";

/**
 * An existing FILE.sig is refused before FILE is written, so a refusal leaves nothing behind; the
 * exclusive create of FILE.sig still refuses one that appears in between.
 */
function refuseExisting(sigFile: string, readBytes: (path: string) => Uint8Array): void {
  try {
    readBytes(sigFile);
  } catch {
    return;
  }
  throw new RefusalError(`${sigFile} already exists; an export never replaces a file`);
}

/** Said under a report of held checks when no signature was checked: what the seal does not prove. */
export const ORIGIN_UNPROVEN =
  "Its origin is unproven: no signature was checked (--allowed-signers FILE checks one). The seal shows only that the file is internally consistent; anyone who changes the file can recompute it.\n";

/** The signature row: who signed the file's bytes, by the allowed signers file; or why it failed. */
function signatureCheck(
  bytes: Uint8Array,
  file: string,
  signing: ExportSigning,
  allowedSigners: Uint8Array,
  readBytes: (path: string) => Uint8Array,
): { check: CheckResult; error?: PtahError } {
  const sigFile = signing.signature ?? `${file}.sig`;
  try {
    let signature: Uint8Array;
    try {
      signature = readBytes(sigFile);
    } catch (err) {
      throw new VerificationError(`the export is not signed: ${err instanceof PtahError ? err.message : String(err)}`);
    }
    const names = { signature: sigFile, allowedSigners: signing.allowedSigners!, message: file };
    const signer = verifySignature({ message: bytes, signature, allowedSigners, namespace: PLAN_SIGNATURE_NAMESPACE, names, signer: signing.signer });
    const detail = `signed by ${signer.principals.join(", ")} with ${signer.keyType} key ${signer.fingerprint} (${sigFile}, namespace ${PLAN_SIGNATURE_NAMESPACE}, allowed by ${names.allowedSigners})`;
    return { check: { check: "signature", ok: true, detail } };
  } catch (err) {
    if (!(err instanceof PtahError)) throw err;
    return { check: { check: "signature", ok: false, detail: err.message }, error: err };
  }
}

/** `--verify -f FILE`: the export's own checks and every check of `plan`, offline; then who signed it. */
export async function verifyExportFile(file: string, signing: ExportSigning, ctx: RunContext): Promise<CommandResult> {
  if (!ctx.readBytes) throw new UsageError("-f needs a file system");
  const readBytes = (path: string): Uint8Array => ctx.readBytes!(path, MAX_SIDE_FILE_BYTES, SIDE_FILE_BOUND);
  // An allowed signers file that is not there is a usage error, before any check is made.
  const allowedSigners = signing.allowedSigners === undefined ? undefined : readBytes(signing.allowedSigners);
  const bytes = ctx.readBytes(file, MAX_EXPORT_BYTES, EXPORT_BOUND);
  const result = await verifyExport(bytes);
  let checks = result.checks;
  let error = result.error;
  if (!error && allowedSigners) {
    const signed = signatureCheck(bytes, file, signing, allowedSigners, readBytes);
    checks = [...checks, signed.check];
    error = signed.error;
  }
  const subject = result.planName ? `exported plan ${result.planName}` : "exported plan";
  const report = renderVerifyReport({ namespace: result.namespace || "?", schemaName: result.schemaName || "?", selection: "exported", subject, checks });
  if (error) return { kind: "refused", error, report };
  return { kind: "printed", stdout: allowedSigners ? report : report + ORIGIN_UNPROVEN };
}
