// The commands that repeat a recorded run by hand against one's own lab (node lab/lab.mjs): a
// fresh namespace labelled for the operator simulator, the unrecorded set-up, then every step as
// the identity it ran as (KUBECONFIG = that identity's kubeconfig, as the runner sets it), with
// the runner's waits as `kubectl wait`, and each read-only step again as lab-viewer.
import { MANAGED_LABEL, MANAGED_VALUE } from "../../sim/common.ts";
import type { Observation } from "../scenario.ts";
import type { RunRecord } from "./record.ts";

const kubeconfig = (as: string): string => `export KUBECONFIG=.lab/kubeconfigs/lab-${as}.yaml`;

/** The runner's await as a kubectl command (type and status; the runner also reads the reason). */
export function waitCommand(o: Observation): string {
  const ns = `-n "${o.namespace ?? "$NAMESPACE"}"`;
  const timeout = `--timeout=${o.timeout ?? "2m"}`;
  if (o.absent) return `kubectl --context lab-admin ${ns} wait ${o.kind}/${o.name} --for=delete ${timeout}`;
  if (o.condition) {
    return `kubectl --context lab-admin ${ns} wait ${o.kind}/${o.name} --for=condition=${o.condition.type}=${o.condition.status} ${timeout}   # reason ${o.condition.reason}`;
  }
  return `# wait until ${o.kind}/${o.name} has ${Object.keys(o.fields ?? {}).join(", ")}`;
}

export function reproduceScript(r: RunRecord): string {
  const out: string[] = [
    "npm ci && npm run build",
    'eval "$(node lab/lab.mjs)"                     # start the lab (or reuse it)',
    'mkdir -p .lab/bin && ln -sf "$PWD/bin/kubectl-ptah.js" .lab/bin/kubectl-ptah',
    'export PATH="$PWD/.lab/bin:$PATH"              # kubectl finds the plugin as kubectl-ptah',
    `export NAMESPACE=${r.id.slice(0, 30)}-$(date +%s)`,
    'kubectl --context lab-admin create namespace "$NAMESPACE"',
    `kubectl --context lab-admin label namespace "$NAMESPACE" ${MANAGED_LABEL}=${MANAGED_VALUE}`,
  ];
  // PGHOST/PGPORT/PGUSER come from the lab's start line above; the simulator names each owner's
  // database <namespace>/<name> (test/sim/database.ts).
  if (r.database && r.variables.some((v) => v.name === "PGDATABASE"))
    out.push(`export PGDATABASE="$NAMESPACE/${r.database}"            # ${r.database}'s database in the lab's PostgreSQL`);
  let current = "";
  const as = (who: string): void => {
    if (who !== current) out.push(kubeconfig(who));
    current = who;
  };
  if (r.reset.length > 0) out.push("", "# set-up (not recorded)");
  for (const step of r.reset) {
    as(step.as);
    out.push(step.run);
  }
  for (const s of r.steps) {
    out.push("", `# ${s.index}. ${s.note}`);
    if (s.await) out.push(waitCommand(s.await));
    as(s.as);
    if (s.retry) out.push(`# (re-run for up to ${s.retry} until it holds)`);
    out.push(s.run);
    if (s.readOnly) out.push(`( ${kubeconfig("viewer")}   # the same, as lab-viewer`, s.run, ")");
  }
  return out.join("\n");
}
