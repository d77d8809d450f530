// `kubectl ptah status SCHEMA --report`: what upstream's FAQ asks a bug report to carry, as
// Markdown for a ticket: the phase and generations, each condition's type, status, reason and
// message with its observedGeneration, the current plan's name, UID and fingerprint, the manager
// and executor identity the status records, and the plugin's and server's versions. Only status
// and metadata the plugin already reads go in: never the kubeconfig, never a credential, never SQL.
// Every cluster string is a code span (render/markdown.ts), so nothing in it is interpreted.
import type { PtahSchema } from "../../model/kinds.ts";
import { code, item as listItem } from "../../render/markdown.ts";
import { managerWords } from "../shared/pending.ts";
import { lagLines } from "../shared/status-lag.ts";

export interface ReportInput {
  readonly schema: PtahSchema;
  /** The served object: status.executionBinding is read from it (the model keeps only what commands use). */
  readonly raw: Record<string, unknown>;
  readonly pluginVersion: string;
  readonly serverVersion: string;
  readonly now: Date;
}

/** One bullet, without its line end: the report joins its lines. */
const item = (label: string, value: string): string => listItem(label, value).trimEnd();
const cell = (v: string | number | undefined): string => (v === undefined || v === "" ? "-" : code(String(v)));

/** status.executionBinding's identity fields, as served: epoch, Ptah version, executor image, runner protocol. */
function executionBinding(raw: Record<string, unknown>): string[] {
  const b = (raw.status as { executionBinding?: unknown } | undefined)?.executionBinding;
  if (!b || typeof b !== "object") return [];
  const fields = ["epoch", "ptahVersion", "executorImage", "runnerProtocolVersion"] as const;
  return fields.flatMap((f) => {
    const v = (b as Record<string, unknown>)[f];
    return typeof v === "string" || typeof v === "number" ? [`${f} ${code(String(v))}`] : [];
  });
}

export function renderSchemaReport(i: ReportInput): string {
  const s = i.schema.status;
  const meta = i.schema.metadata;
  const out: string[] = [`## PtahSchema ${code(`${meta.namespace ?? ""}/${meta.name}`)}`, ""];
  out.push(
    item("Phase", cell(s.phase)),
    item("Generation", `metadata ${cell(meta.generation)}, status observed ${cell(s.observedGeneration)}`),
    item("UID", cell(meta.uid)),
    item("Plugin", `kubectl-ptah ${code(i.pluginVersion)}`),
    item("Server", `Kubernetes ${code(i.serverVersion)}`),
  );
  for (const line of lagLines("PtahSchema", i.schema, i.now)) out.push(item("Newer", code(line)));
  out.push("", "### Conditions", "");
  if (s.conditions.length === 0) out.push("None reported yet.");
  else {
    out.push("| type | status | reason | observedGeneration | lastTransitionTime | message |", "| --- | --- | --- | --- | --- | --- |");
    for (const c of s.conditions) {
      out.push(`| ${cell(c.type)} | ${cell(c.status)} | ${cell(c.reason)} | ${cell(c.observedGeneration)} | ${cell(c.lastTransitionTime)} | ${cell(c.message)} |`);
    }
  }
  out.push("", "### Plan", "");
  const plan = s.plan;
  if (!plan?.name) out.push("No current plan.");
  else {
    out.push(item("Name", cell(plan.name)), item("UID", cell(plan.uid)), item("Fingerprint", cell(plan.fingerprint)), item("Statements", cell(plan.statementCount)));
    if (plan.approval?.name) out.push(item("Approval", `${cell(plan.approval.name)} by ${cell(plan.approval.approver?.username)}`));
  }
  out.push("", "### Operator", "");
  const binding = executionBinding(i.raw);
  out.push(item("Execution binding", binding.length > 0 ? binding.join(", ") : "not recorded in status"));
  const dispatched = managerWords(s.applied?.dispatchedBy);
  out.push(item("Manager (last applied)", dispatched ? code(dispatched) : "no dispatch recorded"));
  if (plan?.controllerImage || plan?.executorImage) {
    out.push(
      item(
        "Plan's binding",
        [plan.controllerImage && `manager ${code(plan.controllerImage)}`, plan.executorImage && `executor ${code(plan.executorImage)}`].filter(Boolean).join(", "),
      ),
    );
  }
  out.push("", "_No credential, kubeconfig or SQL is included; `kubectl ptah plan` prints the plan's statements._");
  return out.join("\n") + "\n";
}
