// The plan command's export (loaded only for --export and -f: it brings the model's parser): a
// plan's export to a new file (the objects exactly as verified, read through a recording reader), and `--verify -f`,
// which re-verifies an export offline. The file system is the shell's (ctx.readBytes, writeNewFile).
import { ReadError, UsageError } from "../../errors.ts";
import type { ClusterReader } from "../../kube/types.ts";
import { buildExport, EXPORT_BOUND, MAX_EXPORT_BYTES, recordingReader, verifyExport, type ServedObject } from "../../plan/export.ts";
import type { VerifiedPlan } from "../../plan/load.ts";
import { CheckLog } from "../../plan/verify.ts";
import { loadChosen, type PlanChoice } from "./plan-choice.ts";
import { sanitize } from "../../render/sanitize.ts";
import { renderVerifyReport } from "../render/plan.ts";
import type { CommandResult, RunContext } from "../types.ts";

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

/** `--export FILE`: verify exactly as `plan` does, then write what was verified to a new file. */
export async function exportPlan(reader: ClusterReader, namespace: string, schemaName: string, choice: PlanChoice, file: string, ctx: RunContext): Promise<CommandResult> {
  if (!ctx.writeNewFile) throw new UsageError("--export needs a file system");
  const served: ServedObject[] = [];
  const verified = await loadChosen(recordingReader(reader, served), namespace, schemaName, choice, new CheckLog());
  const { approvals, warning } = await approvalsOf(reader, namespace, verified);
  const text = buildExport({ verified, served, approvals, exportedAt: ctx.now.toISOString(), exportedBy: `kubectl-ptah ${ctx.version}` });
  ctx.writeNewFile(file, text);
  const name = verified.plan.object.metadata.name;
  const count = approvals === undefined ? "" : `, ${approvals.length} approval${approvals.length === 1 ? "" : "s"}`;
  const line = `ptahschemaplan/${name} exported to ${file} (${verified.documentBytes.length} bytes, fingerprint ${verified.fingerprint}${count})`;
  return { kind: "printed", stdout: `${sanitize(line)}\n`, ...(warning ? { stderr: warning } : {}) };
}

/** `--verify -f FILE`: the export's own checks and every check of `plan`, offline. */
export async function verifyExportFile(file: string, ctx: RunContext): Promise<CommandResult> {
  if (!ctx.readBytes) throw new UsageError("-f needs a file system");
  const result = await verifyExport(ctx.readBytes(file, MAX_EXPORT_BYTES, EXPORT_BOUND));
  const subject = result.planName ? `exported plan ${result.planName}` : "exported plan";
  const report = renderVerifyReport({ namespace: result.namespace || "?", schemaName: result.schemaName || "?", selection: "exported", subject, checks: result.checks });
  if (result.error) return { kind: "refused", error: result.error, report };
  return { kind: "printed", stdout: report };
}
