// `kubectl ptah doctor`: is this machine, cluster, operator and account ready for the approval
// workflow? Every check is ok, a problem (with its fix) or skipped (with why: a check the account
// may not run is skipped, never ok). Exit 0 with no problem, 1 otherwise; the report prints
// either way. Reads only, plus access reviews and --probe's one dry-run create.
import { PtahError, ReadError, RefusalError, NotFoundError, UsageError } from "../../errors.ts";
import type { ClusterInspector } from "../../kube/types.ts";
import { PTAH_API_VERSION, PTAH_KIND_NAMES } from "../../model/api.ts";
import { formatJson } from "../../render/formats.ts";
import { sanitize } from "../../render/sanitize.ts";
import { clockCheck, kubeconfigCheck, machineChecks, serverCheck, versionSkewCheck, type Outcome, type ServerFacts } from "./doctor-connection.ts";
import { crdNameOf, generationCheck, kindsCheck, probeCheck, webhookCheck, type ProbeFacts, type WebhookFacts } from "./doctor-operator.ts";
import { buildPermissionCheck, rulesToReview } from "./doctor-permissions.ts";
import { specWriterCheck, specWriterWebhooks, type StampedFacts } from "./doctor-spec-writer.ts";
import { applyGuardCheck, fourEyesCheck } from "./doctor-admission.ts";
import { approvalPolicyCheck } from "./doctor-policies.ts";
import { readStuckFacts, stuckCheck } from "./doctor-stuck.ts";
import { establishedCheck, managerCheck, managerDeploymentOf } from "./doctor-install.ts";
import { releaseCheck } from "./doctor-release.ts";
import { lastSpecWriter } from "../../model/spec-writer.ts";
import { doctorDocument, skipped, type Check, type DoctorView } from "./doctor-report.ts";
import { renderDoctor } from "./doctor-report-text.ts";
import { namespaceFlag } from "../shared/output.ts";
import { declaredOutput } from "../shared/output-flag.ts";
import { buildSchemaApproval } from "../shared/approval-reads.ts";
import { namesOf } from "../shared/candidates.ts";
import type { CommandBody, Connection, LocalFacts, RunContext } from "../command-types.ts";
import { ACCESS_REVIEW, ptah, ruleKey } from "../shared/permissions.ts";

export interface DoctorOptions {
  readonly output: "text" | "json";
  readonly probe: string | undefined;
}

async function attempt<T>(read: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { kind: "value", value: await read() };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return err instanceof ReadError && err.httpStatus === 403 ? { kind: "forbidden", message } : { kind: "error", message };
  }
}

const NO_MACHINE: LocalFacts = { kubectl: { missing: "kubectl was not looked for" }, plugins: [], selfPath: undefined, processGuard: false };

function sanitizeLocal(l: LocalFacts): LocalFacts {
  return {
    kubectl: "missing" in l.kubectl ? l.kubectl : { gitVersion: sanitize(l.kubectl.gitVersion), minor: l.kubectl.minor },
    plugins: l.plugins.map((p) => ({ ...p, path: sanitize(p.path) })),
    selfPath: l.selfPath === undefined ? undefined : sanitize(l.selfPath),
    processGuard: l.processGuard,
  };
}

/** --probe: build the approval `approve` would print and send it as a dry-run create. */
async function probe(c: Connection, ctx: RunContext, schemaName: string): Promise<ProbeFacts> {
  const schema = `${c.namespace}/${schemaName}`;
  let manifest;
  try {
    manifest = (await buildSchemaApproval(c, namespaceFlag(ctx.global, c.namespace), schemaName, undefined)).manifest;
  } catch (err) {
    if (err instanceof RefusalError || err instanceof NotFoundError || (err instanceof ReadError && err.httpStatus === 403)) {
      return { kind: "not-run", schema, why: `nothing to probe: ${err.message}` };
    }
    return { kind: "failed", schema, message: err instanceof Error ? err.message : String(err) };
  }
  try {
    const { object } = await c.reader.dryRunCreate("PtahSchemaApproval", c.namespace, manifest);
    const approver = (object.spec as { approver?: { username?: unknown } } | undefined)?.approver?.username;
    return { kind: "admitted", schema, approver: typeof approver === "string" ? sanitize(approver) : undefined };
  } catch (err) {
    if (err instanceof ReadError && err.httpStatus === 403 && / cannot create resource /u.test(err.message)) {
      return { kind: "not-run", schema, why: `the account may not create ptahschemaapprovals in ${c.namespace} (the ptah-approver ClusterRole grants it): ${err.message}` };
    }
    if (err instanceof PtahError) return { kind: "refused", schema, message: err.message };
    throw err;
  }
}

/**
 * Four-eyes: whether the namespace's schemas and migrations record a last spec writer;
 * read only when no mutating webhook shows the stamping already.
 */
async function stampedFacts(c: Connection, mutating: Outcome<readonly WebhookFacts[]>): Promise<Outcome<StampedFacts> | undefined> {
  if (mutating.kind === "value" && specWriterWebhooks(mutating.value).length > 0) return undefined;
  return attempt(async () => {
    const [schemas, migrations] = await Promise.all([
      c.reader.list("PtahSchema", { namespace: c.namespace, keepRaw: false }),
      c.reader.list("PtahMigration", { namespace: c.namespace, keepRaw: false }),
    ]);
    const all = [...schemas.items, ...migrations.items];
    return { total: all.length, stamped: all.filter((o) => lastSpecWriter(o.object.metadata) !== undefined).length };
  });
}

/** Who you are is asked only when a guard exists to be exempt from. */
const guardsFound = (g: Outcome<readonly unknown[]>): boolean => g.kind === "value" && g.value.length > 0;

/** The cluster-side checks, all skipped for the same reason. */
function unreachable(why: string): Check[] {
  return [
    ...["kinds served", "CRD generation", "CRDs established"].map((n) => skipped("API", n, why)),
    ...["mutating webhooks", "validating webhooks", "manager", "operator release", "spec writers", "four-eyes", "apply-policy guard", "stuck resources"].map((n) =>
      skipped("Operator", n, why),
    ),
    skipped("Permissions", "commands", why),
  ];
}

/** Server, version skew and clock (Connection), then API, Operator and Permissions. */
async function clusterChecks(
  c: Connection,
  inspector: ClusterInspector,
  ctx: RunContext,
  o: DoctorOptions,
  machine: Promise<LocalFacts>,
): Promise<{ server: Check[]; cluster: Check[] }> {
  const server = await attempt(async (): Promise<ServerFacts> => ({ ...(await inspector.serverVersion()), localTime: ctx.clock() }));
  const local = await machine;
  const serverUrl = c.origin?.cluster.server;
  const connection = [serverCheck(server, serverUrl && sanitize(serverUrl)), versionSkewCheck(server, local), clockCheck(server)];
  if (server.kind !== "value") return { server: connection, cluster: unreachable("the server did not answer") };
  const forms = ((await ctx.allCommands?.()) ?? []).flatMap((command) => command.permissions);
  // The access reviews themselves need no review: answered, they prove the account may create them.
  const rules = rulesToReview(forms).filter((r) => ruleKey(r) !== ruleKey(ACCESS_REVIEW));
  const [discovery, mutating, validating, access, admission, guards, policies, stuck] = await Promise.all([
    attempt(() => inspector.discoverGroup(PTAH_API_VERSION)),
    attempt(() => inspector.listWebhooks("mutating")),
    attempt(() => inspector.listWebhooks("validating")),
    attempt(() => inspector.reviewAccess(rules.map((r) => ({ ...r, namespace: c.namespace })))),
    attempt(() => inspector.admissionConfiguration()),
    attempt(() => inspector.applyGuards()),
    attempt(() => inspector.approvalPolicies()),
    readStuckFacts(c),
  ]);
  const served = discovery.kind === "value" ? PTAH_KIND_NAMES.filter((k) => discovery.value.kinds.includes(k)) : [];
  const manager = managerDeploymentOf(admission);
  const [crds, deployment] = await Promise.all([
    served.length === 0 ? undefined : attempt(() => Promise.all(served.map((k) => inspector.getCrd(crdNameOf(k))))),
    manager ? attempt(() => inspector.deployment(manager.namespace, manager.name)) : undefined,
  ]);
  const allowed =
    access.kind === "value"
      ? new Map([[ruleKey(ACCESS_REVIEW), true], ...access.value.map((a) => [ruleKey(a.check as (typeof rules)[number]), a.allowed] as const)])
      : new Error(access.message);
  const cluster = [kindsCheck(discovery), generationCheck(crds), establishedCheck(crds), webhookCheck("mutating", mutating), webhookCheck("validating", validating)];
  cluster.push(managerCheck(admission, deployment), releaseCheck(admission, crds, stuck));
  const writers = specWriterCheck(c.namespace, mutating, await stampedFacts(c, mutating));
  cluster.push(writers, fourEyesCheck(admission, writers), applyGuardCheck(guards, guardsFound(guards) ? await attempt(() => c.reader.whoAmI()) : undefined));
  cluster.push(approvalPolicyCheck(policies), stuckCheck(stuck, ctx.now));
  if (o.probe !== undefined) cluster.push(probeCheck(await probe(c, ctx, o.probe)));
  cluster.push(buildPermissionCheck(c.namespace, forms, allowed));
  return { server: connection, cluster };
}

async function buildView(ctx: RunContext, o: DoctorOptions): Promise<DoctorView> {
  // Looking at PATH (a kubectl child process) runs while the cluster is asked.
  const machine = (ctx.machine ? ctx.machine() : Promise.resolve(NO_MACHINE)).then(sanitizeLocal);
  let c: Connection;
  try {
    c = await ctx.connect();
  } catch (err) {
    const local = await machine;
    const message = err instanceof Error ? err.message : String(err);
    const checks = [kubeconfigCheck({ kind: "error", message }), serverCheck(undefined, undefined), ...machineChecks(local), ...unreachable("no connection (see kubeconfig)")];
    return { namespace: ctx.global.namespace ?? "default", checks };
  }
  const kubeconfig = kubeconfigCheck({ kind: "value", value: c.origin ?? { contextName: c.contextName } });
  if (!c.inspector) {
    const local = await machine;
    return { namespace: c.namespace, checks: [kubeconfig, ...machineChecks(local), ...unreachable("this connection cannot inspect the cluster")] };
  }
  const { server, cluster } = await clusterChecks(c, c.inspector, ctx, o, machine);
  return { namespace: c.namespace, checks: [kubeconfig, ...server, ...machineChecks(await machine), ...cluster] };
}

/** The -o formats (the shell refuses any other). */
const OUTPUTS = ["json"] as const;
export const doctorCommand: CommandBody<DoctorOptions> = {
  positionals: [],
  outputs: OUTPUTS,
  examples: [
    { comment: "Every check for the current context and namespace", command: "kubectl ptah doctor" },
    { comment: "Also ask admission whether it would accept an approval of storefront (a dry-run create)", command: "kubectl ptah doctor -n shop --probe storefront" },
  ],
  flags: [
    {
      name: "probe",
      type: "string",
      value: "SCHEMA",
      describe: "Send the approval approve would print as a server dry-run create and report admission's answer",
      complete: namesOf("PtahSchema"),
    },
  ],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers"],
  permissions: [
    {
      form: "doctor",
      argv: ["doctor"],
      // The lists are the spec-writer check's (is any object stamped by the webhook?) and the stuck row's.
      rules: [ACCESS_REVIEW, ...ptah("list", "ptahschemas", "ptahmigrations")],
      note: "also get `/version` and discovery; optionally get `customresourcedefinitions`, list `mutatingwebhookconfigurations`, `validatingwebhookconfigurations`, get `mutatingwebhookconfigurations` `ptah-operator-admission` (four-eyes; its annotations name the manager's Deployment, then get that `deployments.apps` in its namespace: is it Available?), list `validatingadmissionpolicies` (by the label `app.kubernetes.io/component=apply-policy-guard`, and by `ptah.run/approval-policy`) and `validatingadmissionpolicybindings` (cluster scope — skipped without them), and create `selfsubjectreviews.authentication.k8s.io` when a guard is found (are you exempt?); list `ptahschemas`, `ptahmigrations` in every namespace for the stuck row (else in its own); `--probe` as `approve --dry-run=server`",
    },
  ],
  toOptions(args) {
    if (args.positionals.length > 0) throw new UsageError("doctor takes no arguments (name a schema with --probe)", "doctor");
    const o = declaredOutput(args, OUTPUTS, "doctor") ?? "text";
    const probeName = args.flags.probe;
    if (probeName !== undefined && (typeof probeName !== "string" || probeName === "")) throw new UsageError("--probe needs a schema name", "doctor");
    return { output: o, probe: probeName };
  },
  async run(options, ctx) {
    const view = await buildView(ctx, options);
    const stdout = options.output === "json" ? formatJson(doctorDocument(view), 2) : renderDoctor(view, ctx.global.color);
    return view.checks.some((c) => c.status === "problem") ? { kind: "printed", stdout, exitStatus: 1 } : { kind: "printed", stdout };
  },
};
