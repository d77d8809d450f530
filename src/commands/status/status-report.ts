// `kubectl ptah status SCHEMA --report`: what upstream's FAQ asks a bug report to carry, as
// Markdown for a ticket: the phase and generations, each condition's type, status, reason and
// message with its observedGeneration, the current plan's name, UID and fingerprint, the manager
// and executor identity the status records, and the plugin's and server's versions. Only status
// and metadata the plugin already reads go in: never the kubeconfig, never a credential, and SQL
// only with --with-sql: then the current plan is read and verified as `plan` verifies it, and its
// statements close the report in a fenced block (status-report-sql.ts).
// Every cluster string is a code span (render/markdown.ts), so nothing in it is interpreted.
import type { PtahSchema } from "../../model/kinds.ts";
import { code, item as listItem } from "../../render/markdown.ts";
import type { Connection, PermissionForm, Printed, RunContext } from "../command-types.ts";
import { ptah } from "../shared/permissions.ts";
import { getOrNotFound, noSuchSchema } from "../shared/read.ts";
import { managerWords } from "../shared/pending.ts";
import { lagLines } from "../shared/status-lag.ts";

export interface ReportInput {
  readonly schema: PtahSchema;
  /** The served object: status.executionBinding is read from it (the model keeps only what commands use). */
  readonly raw: Record<string, unknown>;
  readonly pluginVersion: string;
  readonly serverVersion: string;
  readonly now: Date;
  /** --with-sql: the "### SQL" section (Markdown, status-report-sql.ts); absent: no SQL at all. */
  readonly sql?: string;
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
  if (i.sql === undefined) {
    out.push("", "_No credential, kubeconfig or SQL is included; `kubectl ptah plan` prints the plan's statements._");
    return out.join("\n") + "\n";
  }
  out.push("", i.sql.trimEnd(), "", "_No credential or kubeconfig is included; any SQL above is the current plan's, verified as `kubectl ptah plan` verifies it._");
  return out.join("\n") + "\n";
}

/** --report's flags, declared beside what reads them. */
export const REPORT_FLAGS = [
  {
    name: "report",
    type: "boolean",
    describe:
      "One schema as Markdown for a bug report: phase, conditions with observedGeneration, plan, manager and executor identity, versions; no credential, and no SQL without --with-sql",
  },
  {
    name: "with-sql",
    type: "boolean",
    describe: "With --report: add the current plan's statements, read and verified as `plan` verifies it, and whether they carry row values",
  },
] as const;

const DISCOVERY = "also get `/version` and discovery (every authenticated user, by Kubernetes' system:discovery)";

/** What --report sends the cluster, with and without --with-sql. */
export const REPORT_PERMISSIONS: readonly PermissionForm[] = [
  { form: "status SCHEMA --report", argv: ["status", "storefront", "--report"], rules: ptah("get", "ptahschemas"), note: DISCOVERY },
  {
    form: "status SCHEMA --report --with-sql",
    argv: ["status", "storefront", "--report", "--with-sql"],
    rules: ptah("get", "ptahschemas", "ptahschemaplans", "ptahschemaplanchunks"),
    note: `the current plan and its chunks are read and verified (older installs: get \`configmaps\`); ${DISCOVERY}`,
  },
];

/** `status SCHEMA --report [--with-sql]`: the schema and the server's version at once, then the plan when asked for. */
export async function runReport(name: string, withSql: boolean, ctx: RunContext, c: Connection): Promise<Printed> {
  const [schema, server] = await Promise.all([getOrNotFound(c.reader, "PtahSchema", c.namespace, name, noSuchSchema(c.namespace, name)), c.reader.serverInfo()]);
  // Loaded only with --with-sql: plan loading and verification.
  const sql = withSql ? { sql: await (await import("./status-report-sql.ts")).reportSql(c.reader, schema) } : {};
  const input = { schema: schema.object, raw: schema.raw as Record<string, unknown>, pluginVersion: ctx.version, serverVersion: server.gitVersion, now: ctx.now };
  return { kind: "printed", stdout: renderSchemaReport({ ...input, ...sql }) };
}
