// The machine formats of `diff`: `-o json` (both sides' identity, the binding changes, the
// statement operations) and `-o sql` (the `to` plan's SQL exactly as `plan -o sql` writes it,
// with `-- added` before added statements and removed ones commented out). Pure.
import { bindingInputTopic } from "../../explain/knowledge.ts";
import { rowValuesField, type PlanStatement } from "../../plan/document.ts";
import { statementText } from "../../plan/sql-text.ts";
import { sanitize } from "../../errors.ts";
import { describeSource, type DiffSource, type DiffView, type FromSide } from "../shared/diff-view.ts";

function sourceJson(s: DiffSource): Record<string, string> {
  return s.kind === "approval" || s.kind === "plan" ? { kind: s.kind, name: s.name } : { kind: s.kind };
}

function sideJson(side: FromSide): Record<string, unknown> {
  if (side.kind === "gone") {
    return { source: sourceJson(side.source), gone: true, plan: { name: side.planName, fingerprint: side.fingerprint }, recordedBy: side.recordedBy };
  }
  const v = side.plan;
  const p = v.plan.object;
  return {
    source: sourceJson(side.source),
    gone: false,
    plan: {
      name: p.metadata.name,
      uid: p.metadata.uid,
      fingerprint: v.fingerprint,
      statements: v.document.statements.length,
      destructive: p.spec.destructive ?? false,
      privilegeChanges: p.spec.privilegeChanges ?? [],
      createdAt: p.metadata.creationTimestamp,
      // Only on a declarative-data plan, so a reader (the MCP server) can tell its SQL holds rows.
      ...rowValuesField(v.document),
    },
  };
}

function statementJson(op: "add" | "remove", index: number, s: PlanStatement): Record<string, unknown> {
  return { op, [op === "add" ? "toStatement" : "fromStatement"]: index + 1, sql: s.sql, severity: s.severity, reason: s.reason };
}

/** Indented JSON; statements are listed only where they were added or removed. */
/** What the new plan's locks widen over the old plan's (shared/lock-markdown.ts): undefined when not compared. */
export interface DiffLocks {
  readonly compared: boolean;
  readonly reason?: string;
  readonly widens: readonly unknown[];
}

export function renderDiffJson(v: DiffView, locks?: DiffLocks): string {
  const b = v.bindings;
  let statements: Record<string, unknown>;
  if (!v.statements || v.from.kind === "gone") {
    statements = { compared: false, reason: "the from plan is gone, and its SQL is stored nowhere else" };
  } else {
    const fromDoc = v.from.plan.document.statements;
    const toDoc = v.to.plan.document.statements;
    const operations: Record<string, unknown>[] = [];
    for (const r of v.statements.runs) {
      for (let i = 0; i < r.count && r.kind !== "keep"; i++) {
        operations.push(r.kind === "add" ? statementJson("add", r.to + i, toDoc[r.to + i]!) : statementJson("remove", r.from + i, fromDoc[r.from + i]!));
      }
    }
    statements = { compared: true, ...v.statements.counts, alignment: v.statements.alignment, operations };
  }
  const out = {
    namespace: v.namespace,
    schema: v.schemaName,
    from: { ...sideJson(v.from), ...(v.chosen ? { chosen: v.chosen } : {}) },
    to: sideJson(v.to),
    differs: v.differs,
    bindings: {
      changed: b.changed.map((c) => ({ input: c.input, label: bindingInputTopic(c.input).label, meaning: bindingInputTopic(c.input).moved, from: c.from, to: c.to })),
      unchanged: b.unchanged.length,
      notCompared: b.notCompared,
    },
    statements,
    ...(locks ? { locks } : {}),
  };
  return JSON.stringify(out, null, 2) + "\n";
}

function commented(sql: string): string {
  return statementText(sql)
    .split(/\r\n|\r|\n/u)
    .map((line) => `-- ${line}`)
    .join("\n");
}

function note(s: PlanStatement): string {
  // Cluster strings in a comment are made one line, so they cannot end the comment.
  return `${sanitize(s.severity)}${s.reason ? `: ${sanitize(s.reason)}` : ""}`;
}

/**
 * `-o sql`: every statement of the `to` plan, as `plan -o sql` writes it, in order; each added
 * one preceded by `-- added (…)`, each removed one of the `from` plan written as comments.
 */
export function renderDiffSql(v: DiffView): string {
  const toDoc = v.to.plan.document.statements;
  const line = (s: PlanStatement): string => `${statementText(s.sql)};\n`;
  const head = `-- kubectl ptah diff ${sanitize(`${v.namespace}/${v.schemaName}`)}: from ${describeSource(v.from.source)} to ${describeSource(v.to.source)}\n`;
  if (!v.statements || v.from.kind === "gone") {
    return (
      head +
      "-- the from plan is gone: nothing is marked\n" +
      toDoc
        .filter((s) => statementText(s.sql) !== "")
        .map(line)
        .join("")
    );
  }
  const fromDoc = v.from.plan.document.statements;
  let out = head;
  for (const r of v.statements.runs) {
    for (let i = 0; i < r.count; i++) {
      if (r.kind === "remove") {
        const s = fromDoc[r.from + i]!;
        if (statementText(s.sql) !== "") out += `-- removed (${note(s)}):\n${commented(s.sql)}\n`;
      } else {
        const s = toDoc[r.to + i]!;
        if (statementText(s.sql) === "") continue;
        out += (r.kind === "add" ? `-- added (${note(s)}):\n` : "") + line(s);
      }
    }
  }
  return out;
}
