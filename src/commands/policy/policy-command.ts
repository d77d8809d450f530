// `kubectl ptah policy render`: prints, never applies, the ValidatingAdmissionPolicies and bindings
// with which the API server itself enforces an approval policy: a quorum of endorsers for risky
// plans, weekly change windows, freezes, a break-glass group. No webhook or controller: the API
// server evaluates the CEL on every create of an approval, from any client. The administrator
// reviews the text and applies it (`| kubectl apply -f -`). docs/policy.md is the recipe.
import { UsageError } from "../../errors.ts";
import { formatJson, formatYaml } from "../../render/formats.ts";
import type { CommandBody } from "../command-types.ts";
import { words } from "../shared/candidates.ts";
import { OFFLINE } from "../shared/permissions.ts";
import { policyObjects } from "./policy-manifests.ts";
import { parseEndorsements, parseFreeze, parseGroup, parseNamespaceLabels, parseRisky, parseWindow, RISKS, type PolicySpec } from "./policy-spec.ts";
import { declaredOutput } from "../shared/output-flag.ts";

export interface PolicyOptions {
  readonly spec: PolicySpec;
  readonly output: "yaml" | "json";
  /** The command line, for the YAML header. */
  readonly line: string;
}

const NAME = "policy";
const ACTIONS = ["render"];
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function toSpec(flags: Readonly<Record<string, unknown>>): PolicySpec {
  const endorsements = str(flags.endorsements);
  const group = str(flags["endorser-group"]);
  const risky = str(flags.risky);
  if ((endorsements === undefined) !== (group === undefined)) throw new UsageError("--endorsements and --endorser-group go together: how many endorsers, and of which group", NAME);
  if (risky !== undefined && endorsements === undefined)
    throw new UsageError("--risky says which plans need --endorsements; give --endorsements N --endorser-group GROUP too", NAME);
  const windows = list(flags.window).map(parseWindow);
  const freezes = list(flags.freeze).map((f) => parseFreeze(f, windows[0]?.zone ?? "UTC"));
  const breakglassText = str(flags["breakglass-group"]);
  const name = str(flags.name) ?? "ptah";
  if (!/^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$/u.test(name)) throw new UsageError(`invalid --name "${name}": a lowercase name of at most 40 characters`, NAME);
  const selector = str(flags["namespace-selector"]);
  const spec: PolicySpec = {
    name,
    quorum:
      endorsements === undefined
        ? undefined
        : { endorsements: parseEndorsements(endorsements), group: parseGroup("endorser-group", group!), risky: parseRisky(risky ?? RISKS.join(",")) },
    windows,
    freezes,
    breakglass: breakglassText === undefined ? undefined : parseGroup("breakglass-group", breakglassText),
    namespaceLabels: selector === undefined ? undefined : parseNamespaceLabels(selector),
  };
  if (!spec.quorum && windows.length === 0 && freezes.length === 0) {
    throw new UsageError("nothing to render: give --endorsements N --endorser-group GROUP, --window or --freeze", NAME);
  }
  return spec;
}

function render(o: PolicyOptions): string {
  const objects = policyObjects(o.spec);
  if (o.output === "json") return formatJson({ apiVersion: "v1", kind: "List", items: objects }, 2);
  const header = [
    `# Rendered by: ${o.line}`,
    "# ValidatingAdmissionPolicies the API server enforces on every client; nothing here was applied.",
    "# Review, then apply as a cluster administrator: kubectl apply -f -",
  ].join("\n");
  return `${header}\n${objects.map((x) => formatYaml(x)).join("---\n")}`;
}

/** The -o formats (the shell refuses any other). */
const OUTPUTS = ["yaml", "json"] as const;
export const policyCommand: CommandBody<PolicyOptions> = {
  positionals: [{ name: "ACTION", complete: words(ACTIONS) }],
  outputs: OUTPUTS,
  examples: [
    {
      comment: "Two DBAs endorse destructive plans; no approvals on Friday afternoons or weekends; a December freeze",
      command:
        "kubectl ptah policy render --endorsements 2 --endorser-group dba --risky destructive --window 'Mon-Thu 09:00-17:00 Europe/Berlin' --window 'Fri 09:00-12:00 Europe/Berlin' --freeze 2026-12-18..2027-01-04 | kubectl apply -f -",
    },
    {
      comment: "Only a change window, with a break-glass group for emergencies",
      command: "kubectl ptah policy render --window 'Mon-Fri 08:00-18:00 UTC' --breakglass-group sre-oncall",
    },
  ],
  flags: [
    { name: "endorsements", type: "string", value: "N", describe: "How many endorsers besides the approver a risky schema plan needs (with --endorser-group)" },
    { name: "endorser-group", type: "string", value: "GROUP", describe: "The group whose members may endorse (an endorser is never the plan's last spec writer)" },
    {
      name: "risky",
      type: "string",
      value: "KINDS",
      describe: "Which plans need endorsements: destructive, privileges or both (default destructive,privileges)",
      values: ["destructive", "privileges", "destructive,privileges"],
    },
    {
      name: "window",
      type: "string",
      value: "'DAYS HH:MM-HH:MM ZONE'",
      repeatable: true,
      describe: "Admit approvals only in this weekly window, e.g. 'Mon-Thu 09:00-16:00 Europe/Berlin' (repeat for several)",
    },
    {
      name: "freeze",
      type: "string",
      value: "FROM..TO",
      repeatable: true,
      describe: "Refuse approvals on these whole days, e.g. 2026-12-18..2027-01-04 [ZONE] (default zone: the first window's, else UTC; repeatable)",
    },
    { name: "breakglass-group", type: "string", value: "GROUP", describe: "Members of this group are admitted anyway, and the audit log marks it (annotation breakglass)" },
    { name: "name", type: "string", value: "PREFIX", default: "ptah", describe: "Prefix of the objects' names: PREFIX-quorum, PREFIX-endorsements, PREFIX-window, PREFIX-freeze" },
    { name: "namespace-selector", type: "string", value: "KEY=VALUE,…", describe: "Bind only in namespaces with these labels (default: every namespace)" },
  ],
  hiddenGlobals: ["kubeconfig", "context", "namespace", "all-namespaces", "selector", "no-headers", "request-timeout", "timeout"],
  permissions: [{ form: "policy render", argv: ["policy", "render", "--window", "Mon-Fri 09:00-17:00 UTC"], rules: [], note: OFFLINE }],
  toOptions(args) {
    if (args.positionals.length !== 1 || args.positionals[0] !== "render") throw new UsageError("name an action: render", NAME);
    const output = declaredOutput(args, OUTPUTS, NAME) ?? "yaml";
    return { spec: toSpec(args.flags), output, line: "kubectl ptah policy render" + lineFlags(args.flags) };
  },
  async run(options) {
    return { kind: "printed", stdout: render(options) };
  },
};

/** The flags as typed, for the header (values quoted when they hold a space). */
function lineFlags(flags: Readonly<Record<string, unknown>>): string {
  const quote = (v: string) => (/^[A-Za-z0-9_./:,=@+-]+$/u.test(v) ? v : `'${v}'`);
  return Object.entries(flags)
    .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => ` --${k} ${quote(String(x))}`) : typeof v === "string" ? [` --${k} ${quote(v)}`] : []))
    .join("");
}
