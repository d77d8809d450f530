// What the shell knows of every command before loading it (issue 30: a start loads only the
// running command's code): its name, the line the root help gives it, its usage, and upstream's
// place and usage block where it has one (go-client §10.1). The order is the root help's. Each
// command's declaration (commands/<name>.ts) takes its header from here, so these lines are
// written once; commands/lazy.ts loads a declaration by name, commands/index.ts loads them all.
import type { Command } from "./types.ts";

export type CommandHeader = Pick<Command, "name" | "summary" | "usage" | "upstreamRank" | "rootUsage" | "upstreamUsage">;

const HEADERS = {
  status: {
    summary: "Show every PtahSchema and PtahMigration, or one schema in detail, with what to do next",
    usage:
      "kubectl ptah status [SCHEMA] [-n NAMESPACE | -A] [-l SELECTOR] [--field-selector SELECTOR] [-o wide|json|yaml|name|jsonpath=TEMPLATE|custom-columns=SPEC|custom-columns-file=FILE] [--sort-by JSONPATH] [-L KEY] [--show-labels] [--watch] [--contexts A,B,… | --all-contexts]",
  },
  schema: {
    summary: "Show one PtahSchema as upstream's kubectl-ptah does: phase, source, drift, conditions, plan",
    usage: "kubectl ptah schema <schema> [-o text|json]",
    upstreamRank: 1,
  },
  plan: {
    summary: "Print the SQL of a schema's current or applied plan, after verifying every stored piece",
    usage:
      "kubectl ptah plan <schema> [--current|--applied|--plan NAME] [-o text|sql|json|yaml|markdown] [--statements] [--verify] [--export FILE [--sign KEY]] | kubectl ptah plan --verify -f FILE [--allowed-signers FILE [--signature SIGFILE]]",
    upstreamRank: 0,
    rootUsage: "kubectl ptah plan <schema> [--current|--applied] [-o text|sql|json|yaml]",
    // Upstream's pinned lines (go-client §10.1), exactly; -o yaml, --statements and --verify are ours.
    upstreamUsage: [
      "usage: kubectl ptah plan <schema> [--current|--applied] [-o text|sql|json|yaml] [--statements] [--verify]",
      "",
      "  --current              the plan the operator would run next (the default)",
      "  --applied              the plan the last confirmed apply ran",
      "  -o, --output FORMAT    text (header and SQL), sql, json (the stored plan document), or yaml (ours)",
      "",
      "The applied plan is the stored plan the last confirmed apply ran, exactly as it was approved;",
      "it is not a log of what each statement did.",
    ],
  },
  plans: {
    summary: "List stored plans and every reference that pins them; --unpinned for those nothing names",
    usage: "kubectl ptah plans [SCHEMA | migration MIGRATION] [-n NAMESPACE | -A] [--unpinned] [-o json|yaml|name]",
  },
  diff: {
    summary: "Show what changed between two plans of a schema: fingerprint inputs and statements",
    usage: "kubectl ptah diff <schema> [--from applied|--from approval NAME|--from plan NAME] [--to current|--to plan NAME] [-o text|json|sql|markdown] [--stat] [--exit-code]",
  },
  migration: {
    summary: "Show a PtahMigration: history, the planned sequence, the last run and what blocks it",
    usage: "kubectl ptah migration <migration> [-o text|json]",
    upstreamRank: 2,
  },
  approve: {
    summary: "Print an approval bound to the live, verified plan, to pipe into kubectl create -f -",
    usage: "kubectl ptah approve (SCHEMA | migration MIGRATION) [--name NAME] [-o yaml|json] [--dry-run=server] [--allow-self]",
  },
  approvals: {
    summary: "List approvals with their derived state: Pending, Reserved, Consumed, Stale or Superseded",
    usage:
      "kubectl ptah approvals [SCHEMA | migration MIGRATION] [-n NAMESPACE | -A] [-l SELECTOR] [--field-selector SELECTOR] [-o wide|json|yaml|name|jsonpath=TEMPLATE|custom-columns=SPEC|custom-columns-file=FILE] [--sort-by JSONPATH] [-L KEY] [--show-labels]",
  },
  ledger: {
    summary: "Who approved which exact plan, when, and whether it was consumed, applied or retired",
    usage: "kubectl ptah ledger [SCHEMA | migration MIGRATION] [-n NAMESPACE | -A] [-l SELECTOR] [--contexts A,B,… | --all-contexts] [--relative] [-o json|yaml|csv]",
  },
  inbox: {
    summary: "What waits for a person: approvals, run acknowledgments, blocked destructive plans",
    usage: "kubectl ptah inbox [-n NAMESPACE | -A | --namespaces NS,NS] [--contexts A,B,… | --all-contexts] [--absolute-time] [-o json|yaml]",
  },
  acknowledge: {
    summary: "Print an acknowledgment that settles a migration's unresolved Partial or Unknown run",
    usage: "kubectl ptah acknowledge MIGRATION [--name NAME] [-o yaml|json] [--dry-run=server]",
  },
  history: {
    summary: "Show the condition history and events of a schema or migration, its plans and approvals",
    usage: "kubectl ptah history (SCHEMA | migration MIGRATION) [--watch] [--absolute-time] [-o json]",
  },
  wait: {
    summary: "Wait until a schema or migration reaches a condition, phase or approval state",
    usage: "kubectl ptah wait (SCHEMA | migration MIGRATION) --for=condition=Type[=Status] | --for=phase=Phase | --for=approval=consumed [--timeout=5m]",
  },
  explain: {
    summary: "Explain a condition, reason, phase or approval state, and what to do next",
    usage: "kubectl ptah explain [TOPIC] [flags]",
  },
  doctor: {
    summary: "Check that this machine, cluster, operator and account are ready for the approval workflow",
    usage: "kubectl ptah doctor [-n NAMESPACE] [-o json] [--probe SCHEMA]",
  },
  mcp: {
    summary: "Serve the read commands to an AI assistant over the Model Context Protocol (stdio); never approves",
    usage: "kubectl ptah mcp [--context NAME] [-n NAMESPACE]",
  },
  version: {
    summary: "Print the plugin's version, the server's version and which Ptah kinds it serves",
    usage: "kubectl ptah version [--client] [-o json|yaml]",
  },
  completion: {
    summary: "Print a shell completion script (bash, zsh, fish) or kubectl's plugin completion helper",
    usage: "kubectl ptah completion bash|zsh|fish|kubectl",
  },
} as const satisfies Record<string, Omit<CommandHeader, "name">>;

export type CommandName = keyof typeof HEADERS;

/** Every command's header, in the root help's order. */
export const COMMAND_HEADERS: readonly CommandHeader[] = Object.entries(HEADERS).map(([name, h]) => ({ name, ...h }));

/** One command's header, for its declaration. */
export function header(name: CommandName): CommandHeader {
  return { name, ...HEADERS[name] };
}
