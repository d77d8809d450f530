// The approval_command tool: what a person runs to approve, never the approval itself. It runs
// `approve … -o json` (no --dry-run: nothing is sent but the reads approve makes), so the plan is
// verified and four-eyes is checked exactly as for the person's own `kubectl ptah approve`; it
// returns the command line and the plan the approval would bind, not the manifest, so the answer
// is something to hand to a person rather than something to pipe into a create.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { sanitizeMultiline } from "../../render/sanitize.ts";
import type { GlobalOptions, LineResult } from "../command-types.ts";
import { commandLine, type AnyArgs } from "./mcp-tools.ts";

const HAND_OVER =
  "Hand this command to the person who decides: the webhook records whoever creates the approval as its approver, so an assistant must never run it. Read the plan first (the plan tool).";

export async function approvalCommand(args: AnyArgs, run: (argv: readonly string[]) => Promise<LineResult>, server: GlobalOptions): Promise<CallToolResult> {
  const line = commandLine("approval_command", args, "json");
  const answer = await run(line);
  if (answer.stdout === "" || answer.status !== 0) return { content: [{ type: "text", text: firstLine(answer.stderr) }], isError: true };
  const manifest = JSON.parse(answer.stdout) as {
    kind?: string;
    metadata?: { name?: string; namespace?: string };
    spec?: { planRef?: { name?: string; uid?: string }; planFingerprint?: string; schemaRef?: { name?: string }; migrationRef?: { name?: string } };
  };
  const namespace = manifest.metadata?.namespace ?? "";
  const target = args.migration !== undefined ? `migration ${args.migration}` : String(args.schema);
  // The server's cluster flags, so the person's command reads the cluster these answers came from.
  const cluster = [server.kubeconfig !== undefined ? `--kubeconfig ${quote(server.kubeconfig)}` : "", server.context !== undefined ? `--context ${quote(server.context)}` : ""]
    .filter(Boolean)
    .join(" ");
  const on = cluster ? ` ${cluster}` : "";
  const command = `kubectl ptah approve ${target} -n ${namespace}${on} | kubectl create${on} -f -`;
  const value = {
    command,
    kind: manifest.kind,
    namespace,
    approvalName: manifest.metadata?.name,
    target: args.migration !== undefined ? { kind: "PtahMigration", name: args.migration } : { kind: "PtahSchema", name: args.schema },
    plan: { name: manifest.spec?.planRef?.name, uid: manifest.spec?.planRef?.uid, fingerprint: manifest.spec?.planFingerprint },
    note: HAND_OVER,
  };
  const text = [
    `To approve, a person runs:`,
    `  ${command}`,
    `It binds ${value.kind} ${value.approvalName} to plan ${value.plan.name} (uid ${value.plan.uid}), fingerprint ${value.plan.fingerprint}.`,
    HAND_OVER,
    "",
  ].join("\n");
  return { content: [{ type: "text", text: sanitizeMultiline(text) }], structuredContent: value };
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] || "error: approve printed nothing";
}

/** A shell word: as it is when it needs no quoting, else in single quotes. */
function quote(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/u.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
