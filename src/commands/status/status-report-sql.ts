// `status SCHEMA --report --with-sql`: the report's SQL section. The current plan is read (get the
// plan, get every chunk) and verified as `plan` verifies it; a plan that does not verify refuses
// the report, as `plan` refuses, since nothing unverified is printed. Its statements go in one
// fenced sql block (the fence longer than any backtick run inside, render/markdown.ts), after the
// row-values line when the plan carries row values: a reader of the ticket reads that data.
import { loadRecordedPlan } from "../../plan/load.ts";
import { selectPlanRecord } from "../../plan/select.ts";
import type { ClusterReader } from "../../kube/types.ts";
import type { PtahSchema } from "../../model/kinds.ts";
import type { Parsed } from "../../model/parse.ts";
import { code, fence, item } from "../../render/markdown.ts";
import { rowValuesItem } from "../shared/plan-markdown.ts";
import { renderPlanSql } from "../shared/plan-view.ts";

/** The "### SQL" section: the verified current plan's statements, or one line saying there is none. */
export async function reportSql(reader: ClusterReader, schema: Parsed<PtahSchema>): Promise<string> {
  const namespace = schema.object.metadata.namespace ?? "";
  if (!schema.object.status.plan?.name) return "### SQL\n\nNo current plan: there are no statements to include.\n";
  const verified = await loadRecordedPlan(reader, schema, selectPlanRecord(schema.object, namespace, "current"));
  const marked = rowValuesItem(verified.document);
  const rows = marked === "" ? "" : `${marked}\n`;
  const sql = renderPlanSql(verified.document);
  const plan = item("Plan", `${code(verified.plan.object.metadata.name)}, fingerprint ${code(verified.fingerprint)}, verified (chunks, content digest, fingerprint)`);
  return `### SQL\n\n${plan}${rows}${sql === "" ? "The plan holds no statements.\n" : fence("sql", sql)}`;
}
