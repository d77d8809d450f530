// `plan -o markdown` and `diff -o markdown`: a GitHub-flavoured Markdown summary a person pastes
// into a pull request or a ticket. The schema, the fingerprints, (diff) the fingerprint inputs that
// moved with their meaning, the statements as a ```diff block with each statement's severity and
// reason, destructive and privilege changes called out, the exact approve command, and a footer
// with the plugin's version and when it read the cluster. Cluster strings only ever appear in code
// spans and fenced blocks (render/markdown.ts), so none can add a link, an image, HTML or a fence.
// Pure: built from verified plans only.
import { bindingInputTopic } from "../../explain/knowledge.ts";
import type { PlanBindingValue } from "../../model/binding-inputs.ts";
import { rowValueTables, type PlanDocument, type PlanStatement } from "../../plan/document.ts";
import type { VerifiedPlan } from "../../plan/load.ts";
import { normalizePrivilegeChanges } from "../../plan/fingerprint.ts";
import { statementText } from "../../plan/sql-text.ts";
import { buildHunks } from "../../plan/statement-diff.ts";
import { formatTimestamp } from "../../render/age.ts";
import { sanitize } from "../../errors.ts";
import { alert, code, fence, item } from "../../render/markdown.ts";
import { DIFF_CONTEXT, hunkHeader, type DiffSource, type DiffView, type FromSide } from "./diff-view.ts";

export interface MarkdownMeta {
  /** The plugin's version (ctx.version). */
  readonly version: string;
  /** When the cluster was read. */
  readonly now: Date;
  /** The lock-impact section (shared/lock-markdown.ts), before the statements. */
  readonly lockSection?: string;
}

const MARK = { keep: " ", remove: "-", add: "+" } as const;

/** One statement in a ```diff block: its lines marked, the first one annotated (severity: reason). */
function statementLines(kind: "keep" | "remove" | "add", s: PlanStatement): string {
  const lines = `${statementText(s.sql)};`.split(/\r\n|\r|\n/u);
  // One line: a reason holding a line break must not add a line of its own to the block.
  const note = kind === "keep" ? "" : `  (${sanitize(s.severity)}${s.reason ? `: ${sanitize(s.reason)}` : ""})`;
  return lines.map((line, i) => `${MARK[kind]}${line}${i === 0 ? note : ""}`).join("\n");
}

function privilegeValue(recorded: readonly string[], read: readonly string[]): string {
  // As the fingerprint binds them (Go's TrimSpace, de-duplicated, sorted), so none is dropped that it counts.
  const own = normalizePrivilegeChanges(recorded);
  const extra = read.filter((k) => !own.includes(k));
  const parts: string[] = [];
  if (own.length > 0) parts.push(own.map(code).join(", "));
  if (extra.length > 0) parts.push(`${extra.map(code).join(", ")} (read by this plugin, not recorded)`);
  return parts.length === 0 ? "none" : parts.join("; ");
}

/** Destructive and privilege call-outs for the plan a person would approve; `shown` are the statements to name. */
function callouts(v: VerifiedPlan, shown: readonly { readonly n: number; readonly s: PlanStatement }[]): string {
  const spec = v.plan.object.spec;
  let out = "";
  const destructive = shown.filter(({ s }) => s.severity === "destructive");
  if (spec.destructive === true || destructive.length > 0 || v.document.destructiveRead) {
    const lines = [`**Destructive.** The plan ${spec.destructive === true ? "records itself as destructive" : "does not record itself as destructive, but its SQL reads so"}.`];
    for (const { n, s } of destructive) lines.push(`Statement ${n}: ${code(s.reason || statementText(s.sql).split("\n")[0] || "")}`);
    out += alert("CAUTION", lines) + "\n";
  }
  const privileges = privilegeValue(spec.privilegeChanges ?? [], v.document.privilegeKindsRead);
  if (privileges !== "none") out += alert("WARNING", [`**Privilege changes:** ${privileges}`]) + "\n";
  return out;
}

function approveSection(schema: string, namespace: string, v: VerifiedPlan): string {
  return (
    "### Approve\n\n" +
    fence("sh", `kubectl ptah approve ${schema} -n ${namespace} | kubectl create -f -`) +
    `\n\`approve\` binds the plan that is current when it runs, after verifying it again: it is this plan when its header shows the fingerprint ${code(v.fingerprint)}.\n\n`
  );
}

function footer(meta: MarkdownMeta): string {
  return `---\n\n_Read from the cluster by kubectl-ptah ${code(meta.version)} at ${formatTimestamp(meta.now.toISOString())}._\n`;
}

function severityCounts(statements: readonly PlanStatement[]): string {
  const counts = new Map<string, number>();
  for (const s of statements) counts.set(s.severity, (counts.get(s.severity) ?? 0) + 1);
  return [...counts].map(([severity, n]) => `${n} ${code(severity)}`).join(", ");
}

/** `plan -o markdown`. */
export function renderPlanMarkdown(v: VerifiedPlan, meta: MarkdownMeta): string {
  const plan = v.plan.object;
  const { namespace, schemaName } = v.record;
  const statements = v.document.statements;
  let out = `## Schema plan for ${code(`${namespace}/${schemaName}`)}\n\n`;
  out += item("Plan", `${code(plan.metadata.name)} (the ${v.record.selection} plan)`);
  out += item("Fingerprint", code(v.fingerprint));
  out += item("Content digest", code(plan.spec.contentDigest ?? ""));
  out += item("Database state", `from ${code(v.document.fromFingerprint)} to ${code(v.document.toFingerprint)}`);
  out += item("Statements", `${statements.length}${statements.length > 0 ? ` (${severityCounts(statements)})` : ""}`);
  out += item("Destructive", plan.spec.destructive === true ? "**yes**" : "no");
  out += item("Privilege changes", privilegeValue(plan.spec.privilegeChanges ?? [], v.document.privilegeKindsRead));
  out += rowValuesItem(v.document);
  out += item("Stored", formatTimestamp(plan.metadata.creationTimestamp) || "unknown");
  if (v.record.selection === "applied") out += item("Applied", formatTimestamp(v.record.completedAt) || "unknown");
  out +=
    "\n" +
    callouts(
      v,
      statements.map((s, i) => ({ n: i + 1, s })),
    );
  out += meta.lockSection ?? "";
  out += "### Statements\n\n" + fence("diff", statements.map((s) => statementLines("add", s)).join("\n")) + "\n";
  if (v.record.selection === "current") out += approveSection(schemaName, namespace, v);
  return out + footer(meta);
}

/** Where a side's plan came from; a name from the cluster or the command line in a code span. */
function sourceText(source: DiffSource): string {
  if (source.kind === "approval") return `the plan approval ${code(source.name)} approved`;
  if (source.kind === "plan") return `plan ${code(source.name)}`;
  return source.kind === "applied" ? "the applied plan" : "the current plan";
}

function sideItems(side: FromSide, label: string): string {
  if (side.kind === "gone") {
    return item(label, `${sourceText(side.source)}: ${code(side.planName)}, no longer stored; fingerprint ${code(side.fingerprint)} (as recorded by ${code(side.recordedBy)})`);
  }
  const v = side.plan;
  return item(label, `${sourceText(side.source)}: ${code(v.plan.object.metadata.name)}, fingerprint ${code(v.fingerprint)}, ${v.document.statements.length} statements`);
}

function bindingValue(v: PlanBindingValue): string {
  if (Array.isArray(v)) return v.length === 0 ? "none" : (v as readonly string[]).map(code).join(", ");
  return code(String(v));
}

/** `diff -o markdown`. */
export function renderDiffMarkdown(view: DiffView, meta: MarkdownMeta): string {
  let out = `## Schema plan change for ${code(`${view.namespace}/${view.schemaName}`)}\n\n`;
  out += sideItems(view.from, "From");
  if (view.chosen) out += item("Chosen", code(view.chosen));
  out += sideItems(view.to, "To");
  out += item("Same plan", view.differs ? "no: the fingerprints differ" : "yes: the fingerprints are equal");
  const b = view.bindings;
  out += `\n### Fingerprint inputs that moved (${b.changed.length} of ${b.changed.length + b.unchanged.length})\n\n`;
  for (const c of b.changed) {
    const topic = bindingInputTopic(c.input);
    out += `- **${topic.label}**: ${topic.moved}\n  - from ${bindingValue(c.from)}\n  - to ${bindingValue(c.to)}\n`;
  }
  if (b.changed.length === 0) out += "None.\n";
  if (b.notCompared.length > 0) out += `\nNot compared (not recorded): ${b.notCompared.map((i) => bindingInputTopic(i).label).join(", ")}.\n`;
  const to = view.to.plan;
  const toDoc = to.document.statements;
  let added: { n: number; s: PlanStatement }[] = toDoc.map((s, i) => ({ n: i + 1, s }));
  if (!view.statements || view.from.kind === "gone") {
    out += "\n### Statements\n\nNot compared: the from plan is gone, and its SQL is stored nowhere else.\n\n";
  } else {
    const c = view.statements.counts;
    const fromDoc = view.from.plan.document.statements;
    const body: string[] = [];
    added = [];
    for (const h of buildHunks(view.statements.runs, DIFF_CONTEXT)) {
      body.push(hunkHeader(h));
      for (const l of h.lines) {
        const s = l.kind === "add" ? toDoc[l.to!]! : fromDoc[l.from!]!;
        if (l.kind === "add") added.push({ n: l.to! + 1, s });
        body.push(statementLines(l.kind, s));
      }
    }
    out += `\n### Statements: ${c.added} added, ${c.removed} removed, ${c.unchanged} unchanged\n\n`;
    out += body.length > 0 ? fence("diff", body.join("\n")) + "\n" : "No statement changed.\n\n";
  }
  out += meta.lockSection ?? "";
  out += callouts(to, added);
  if (view.to.source.kind === "current") out += approveSection(view.schemaName, view.namespace, to);
  return out + footer(meta);
}

/** The Markdown bullet that says a plan's statements carry row values (none for a schema-only plan). */
export function rowValuesItem(doc: Pick<PlanDocument, "managedRows">): string {
  const tables = rowValueTables(doc);
  return tables.length === 0 ? "" : item("Row values", `**this plan carries row values** (${tables.map(code).join(", ")}); reading it is reading that data`);
}
