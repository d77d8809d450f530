// The bench's cases at one size: each the plugin (the npm bin, run directly as `kubectl-ptah`, as
// kubectl runs a plugin) and its references in the same run — the floor (floor.mjs: the same
// requests by raw node:https), kubectl (the real binary), `node -e 0` for offline commands and the
// seed's kubectl+jq pipeline for `approve`; and the single binary (`--binary`) beside the npm bin on
// every row. `goals`: the issue's targets that a ratio must hold.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BIG_NAMESPACE, NAMESPACES, schemaAt } from "./seed.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const API = "/apis/operator.ptah.run/v1alpha1";

export function pages(count, limit = 500) {
  return Math.max(1, Math.ceil(count / limit));
}

const nsPath = (ns, plural, name) => `${API}/namespaces/${ns}/${plural}${name ? `/${name}` : ""}`;

/** Every case at `size` schemas; `one` names schema 0's plan and chunks, `big` the 8 MiB plan's. */
export function buildCases(ctx, size, one, big) {
  const kubectl = (args) => ({ argv: [ctx.kubectl, ...args], display: `kubectl ${args.join(" ")}`, agent: "kubectl" });
  const plugin = (args, check) => ({ argv: ["kubectl-ptah", ...args], display: `kubectl-ptah ${args.join(" ")}`, agent: "plugin", check });
  const floor = (...steps) => ({ argv: [process.execPath, path.join(HERE, "floor.mjs"), ...steps], display: `floor: ${steps.join(" ; ")}`, agent: "floor" });
  const node0 = { argv: [process.execPath, "-e", "0"], display: "node -e 0" };
  // The single binary (what krew installs) beside the npm bin on every live row: its ratio is
  // binary / npm bin (`over`), its goal ≤ 1.03× the npm bin's time and ≤ its peak RSS.
  const binary = (argv, check) =>
    ctx.binary ? { binary: { argv: [ctx.binary, ...argv.slice(1)], display: `single binary ${argv.slice(1).join(" ")}`, agent: "plugin", check, over: true } } : {};
  const binaryGoals = ctx.binary
    ? [
        { against: "binary", max: 1.03 },
        { against: "binary", rss: true, max: 1.0 },
      ]
    : [];
  const withBinary = (c) => ({ ...c, sides: { ...c.sides, ...binary(c.sides.plugin.argv, c.sides.plugin.check) }, goals: [...c.goals, ...binaryGoals] });
  const ns = NAMESPACES[0];
  const name = schemaAt(0).name;
  const schemasTotal = size + 1; // + the big one
  const approvalsTotal = 3 * size;
  const approvalsInNs = 3 * Math.ceil(size / NAMESPACES.length);
  const getSchema = `get ${nsPath(ns, "ptahschemas", name)}`;
  const listApprovals = `list ${nsPath(ns, "ptahschemaapprovals")}`;
  const getPlan = `get ${nsPath(ns, "ptahschemaplans", one.plan)}`;
  const getChunks = one.chunks.map((c) => `get ${nsPath(ns, "ptahschemaplanchunks", c)}`).join(" & ");
  /** The approval policies and their bindings, listed by status SCHEMA, approve, ledger and inbox (none bound in the bench's lab). */
  const POLICY_READS = 2;
  const single = (id, label, args, sides, expectedRequests, extraGoals = []) =>
    withBinary({
      group: "single",
      id,
      label,
      expectedRequests,
      sides: { plugin: plugin([...args, "-n", ns]), ...sides },
      goals: [{ against: "floor", max: 1.2 }, ...extraGoals],
    });
  const cases = [];

  // Offline: nothing but the start of the process; measured once (they do not depend on the size).
  if (size === ctx.firstSize) {
    const offline = [
      ["explain-topic", ["explain", "stale"]],
      ["help", ["--help"]],
      ["complete", ["__complete", ""]],
    ];
    const bins = [["npm", "kubectl-ptah", 1.15], ...(ctx.binary ? [["binary", ctx.binary, 1.1]] : [])];
    for (const [dist, bin, max] of bins)
      for (const [id, args] of offline)
        cases.push({
          group: "offline",
          id: `${id}-${dist}`,
          label: `${dist === "npm" ? "kubectl-ptah" : "single binary"} ${args.join(" ")}`,
          expectedRequests: 0,
          runs: ctx.offlineRuns,
          sides: {
            plugin: { argv: [bin, ...args], display: `${path.basename(bin)} ${args.join(" ")}`, agent: "plugin" },
            node: node0,
            ...(dist === "binary" ? { npm: { argv: ["kubectl-ptah", ...args], display: `kubectl-ptah ${args.join(" ")}` } } : {}),
          },
          goals: [
            { against: "node", max },
            ...(dist === "binary"
              ? [
                  { against: "npm", max: 1.03 },
                  { against: "npm", rss: true, max: 1.0 },
                ]
              : []),
          ],
        });
    // The guards' start-up cost: the npm bin against the same snapshot whose loader installs
    // neither guard (bench.mjs), with many more runs than the other offline cases, because a
    // difference of under 1 ms in ~100 ms is lost in the spread of 15 runs on a shared machine.
    cases.push({
      group: "offline",
      id: "guard-cost",
      label: "kubectl-ptah explain stale, guarded / unguarded",
      expectedRequests: 0,
      runs: ctx.guardRuns,
      sides: {
        plugin: { argv: ["kubectl-ptah", "explain", "stale"], display: "kubectl-ptah explain stale", agent: "plugin" },
        unguarded: { argv: [ctx.unguarded, "explain", "stale"], display: "unguarded copy explain stale" },
      },
      goals: [],
    });
  }

  cases.push(single("schema", `schema ${name}`, ["schema", name], { floor: floor(getSchema), kubectl: kubectl(["get", "ptahschema", name, "-n", ns, "-o", "json"]) }, 1));
  cases.push(
    single(
      "status-one",
      `status ${name} (its namespace: ${approvalsInNs} approvals)`,
      ["status", name],
      { floor: floor(`${getSchema} & ${listApprovals}`), kubectl: kubectl(["get", "ptahschema", name, "-n", ns, "-o", "yaml"]) },
      // and the approval policies' two lists (policies, bindings), beside them
      1 + pages(approvalsInNs) + POLICY_READS,
      [{ against: "kubectl", max: 1.5 }],
    ),
  );
  cases.push(
    single(
      "plan-small",
      `plan ${name} (one chunk)`,
      ["plan", name],
      {
        floor: floor(getSchema, getPlan, getChunks),
        kubectl: kubectl(["get", `ptahschema/${name}`, `ptahschemaplan/${one.plan}`, ...one.chunks.map((c) => `ptahschemaplanchunk/${c}`), "-n", ns, "-o", "json"]),
      },
      2 + one.chunks.length,
    ),
  );
  cases.push(
    single(
      "approve",
      `approve ${name} (one chunk, verified)`,
      ["approve", name],
      {
        floor: floor(getSchema, getPlan, getChunks, getSchema),
        kubectl: kubectl(["get", "ptahschema", name, "-n", ns, "-o", "json"]),
        pipeline: {
          argv: ["sh", path.join(HERE, "approve-pipeline.sh"), ctx.kubectl, ns, name, ctx.tmp],
          display: "the seed's kubectl get ×2 + jq (test/bench/approve-pipeline.sh)",
          agent: "kubectl",
        },
      },
      // schema, plan, chunks, schema again, and the four-eyes switch (the admission configuration's GET,
      // sent beside the plan's reads; no SelfSubjectReview: the seeded schemas record no spec writer),
      // then the approval policies' two lists (none bound: no SelfSubjectReview for them either).
      4 + one.chunks.length + POLICY_READS,
      [{ against: "pipeline", max: 1.0 }],
    ),
  );
  cases.push(
    single(
      "explain-schema",
      `explain ${name} (live)`,
      ["explain", name],
      { floor: floor(`${getSchema} & ${listApprovals}`), kubectl: kubectl(["get", "ptahschema", name, "-n", ns, "-o", "yaml"]) },
      1 + pages(approvalsInNs),
    ),
  );
  cases.push(
    single(
      "wait",
      `wait ${name} --for=phase=AwaitingApproval (already true)`,
      ["wait", name, "--for=phase=AwaitingApproval"],
      {
        floor: floor(`list ${nsPath(ns, "ptahschemas")}?fieldSelector=metadata.name%3D${name}`),
        kubectl: kubectl(["wait", `ptahschema/${name}`, "-n", ns, "--for=jsonpath={.status.phase}=AwaitingApproval", "--timeout=10s"]),
      },
      1,
    ),
  );

  // Whole-cluster lists: the floor lists the same kinds in parallel, page by page.
  const listAll = (...plurals) => plurals.map((p) => `list ${API}/${p}`).join(" & ");
  // Lists of 5,000 schemas take tens of seconds a run for kubectl: the heavy cases' runs there.
  const listRuns = size >= 5000 ? ctx.heavyRuns : undefined;
  const listGoal = size <= 100 ? [{ against: "kubectl", max: 1.1 }] : size >= 5000 ? [{ against: "kubectl", max: 0.5 }] : [];
  cases.push({
    group: "lists",
    id: "status-all",
    label: "status -A",
    expectedRequests: pages(schemasTotal) + pages(0) + pages(approvalsTotal),
    sides: {
      plugin: plugin(["status", "-A"]),
      floor: floor(listAll("ptahschemas", "ptahmigrations", "ptahschemaapprovals")),
      kubectl: kubectl(["get", "ptahschemas,ptahmigrations,ptahschemaapprovals", "-A", "-o", "json", "--chunk-size=500"]),
    },
    goals: listGoal,
    runs: listRuns,
  });
  cases.push({
    group: "lists",
    id: "approvals-all",
    label: "approvals -A",
    expectedRequests: pages(approvalsTotal) + pages(schemasTotal) + pages(0) + pages(0),
    sides: {
      plugin: plugin(["approvals", "-A"]),
      floor: floor(listAll("ptahschemaapprovals", "ptahschemas", "ptahmigrationapprovals", "ptahmigrations")),
      kubectl: kubectl(["get", "ptahschemaapprovals,ptahschemas,ptahmigrationapprovals,ptahmigrations", "-A", "-o", "json", "--chunk-size=500"]),
    },
    goals: listGoal,
    runs: listRuns,
  });
  const ledgerKinds = ["ptahschemas", "ptahschemaapprovals", "ptahmigrations", "ptahmigrationapprovals", "ptahmigrationrunacknowledgments"];
  cases.push({
    group: "lists",
    id: "ledger-all",
    label: "ledger -A",
    expectedRequests: pages(schemasTotal) + pages(approvalsTotal) + 3 + POLICY_READS,
    sides: { plugin: plugin(["ledger", "-A"]), floor: floor(listAll(...ledgerKinds)), kubectl: kubectl(["get", ledgerKinds.join(","), "-A", "-o", "json", "--chunk-size=500"]) },
    goals: [{ against: "kubectl", max: 1.2 }],
    runs: listRuns,
  });
  // inbox also creates SelfSubjectAccessReviews (one cluster-wide, then one per waiting namespace):
  // the floor sends GETs only, so inbox is measured against kubectl's lists of the same kinds.
  const awaitingNamespaces = Math.min(size, NAMESPACES.length / 2) + 1;
  cases.push({
    group: "lists",
    id: "inbox-all",
    label: `inbox -A (2 lists, 1 + ${awaitingNamespaces} access reviews)`,
    expectedRequests: pages(schemasTotal) + pages(0) + 1 + awaitingNamespaces + POLICY_READS,
    sides: { plugin: plugin(["inbox", "-A"]), kubectl: kubectl(["get", "ptahschemas,ptahmigrations", "-A", "-o", "json", "--chunk-size=500"]) },
    goals: [{ against: "kubectl", max: 1.2 }],
    runs: listRuns,
  });

  // A fleet of 50 contexts (fleet.mjs; size-independent): the whole fleet against its slowest
  // context alone, both from the same kubeconfig. Its 3 dead contexts are refused at once (port 1):
  // a silent one costs its --request-timeout by construction, which test/e2e/fleet-fifty shows.
  if (size === ctx.firstSize && ctx.fleet) {
    const fleetCmd = (args) => plugin(["--kubeconfig", ctx.fleet.kubeconfig, ...args]);
    cases.push({
      group: "fleet",
      id: "inbox-fleet-50",
      label: `inbox --all-contexts (50 contexts: ${ctx.fleet.summary})`,
      sides: { plugin: fleetCmd(["inbox", "--all-contexts"]), slowest: fleetCmd(["--context", ctx.fleet.slowest, "inbox"]) },
      goals: [{ against: "slowest", max: 1.3 }],
    });
  }

  // The 8 MiB plan: time against kubectl's reads of the same objects; memory against kubectl's.
  const bigChunks = big.chunks.map((c) => `get ${nsPath(BIG_NAMESPACE, "ptahschemaplanchunks", c)}`).join(" & ");
  const sqlCheck = (warm) => (warm.stdoutBytes < big.documentBytes * 0.5 ? `printed only ${warm.stdoutBytes} bytes of SQL` : undefined);
  cases.push({
    group: "plan-big",
    id: "plan-8mib",
    label: `plan ${big.schema} -o sql (${(big.documentBytes / 1048576).toFixed(2)} MiB in ${big.chunks.length} chunks)`,
    expectedRequests: 2 + big.chunks.length,
    sides: {
      plugin: plugin(["plan", big.schema, "-n", BIG_NAMESPACE, "-o", "sql"], sqlCheck),
      floor: floor(`get ${nsPath(BIG_NAMESPACE, "ptahschemas", big.schema)}`, `get ${nsPath(BIG_NAMESPACE, "ptahschemaplans", big.plan)}`, bigChunks),
      kubectl: kubectl(["get", `ptahschema/${big.schema}`, `ptahschemaplan/${big.plan}`, ...big.chunks.map((c) => `ptahschemaplanchunk/${c}`), "-n", BIG_NAMESPACE, "-o", "json"]),
    },
    goals: [
      { against: "kubectl", max: 1.5 },
      { against: "kubectl", rss: true, max: 1.0 },
    ],
    runs: ctx.heavyRuns,
  });
  // Two 8 MiB plans diffed statement by statement, beside `plan -o sql` of one; size-independent.
  if (size === ctx.largestSize)
    cases.push({
      group: "plan-big",
      id: "diff-8mib",
      label: `diff ${big.schema} --from plan (two ${(big.documentBytes / 1048576).toFixed(2)} MiB plans, ${big.statements} statements each)`,
      expectedRequests: 1 + 2 * (1 + big.chunks.length),
      sides: {
        plugin: plugin(["diff", big.schema, "-n", BIG_NAMESPACE, "--from", "plan", big.earlierPlan], (warm) =>
          warm.stdoutBytes < 1000 ? `printed only ${warm.stdoutBytes} bytes` : undefined,
        ),
        planSql: { ...plugin(["plan", big.schema, "-n", BIG_NAMESPACE, "-o", "sql"]) },
      },
      goals: [{ against: "planSql", max: 2.5 }],
      runs: ctx.heavyRuns,
    });

  // The 8 MiB plan's lock impact: every statement parsed by PostgreSQL's parser (WebAssembly) and
  // analysed, beside `plan -o sql` of the same plan (the same reads); size-independent.
  if (size === ctx.largestSize)
    cases.push({
      group: "plan-big",
      id: "locks-8mib",
      label: `plan ${big.schema} --locks (${(big.documentBytes / 1048576).toFixed(2)} MiB, ${big.statements} statements analysed)`,
      expectedRequests: 2 + big.chunks.length,
      sides: {
        plugin: plugin(["plan", big.schema, "-n", BIG_NAMESPACE, "--locks"], (warm) =>
          warm.stdoutBytes < big.documentBytes * 0.5 ? `printed only ${warm.stdoutBytes} bytes` : undefined,
        ),
        planSql: { ...plugin(["plan", big.schema, "-n", BIG_NAMESPACE, "-o", "sql"]) },
      },
      goals: [
        { against: "planSql", max: 2.0 },
        { against: "planSql", rss: true, max: 2.0 },
      ],
      runs: ctx.heavyRuns,
    });

  for (const [i, c] of cases.entries()) if (c.group !== "offline" && c.group !== "single") cases[i] = withBinary(c);
  return cases.filter((c) => !ctx.only || ctx.only.includes(c.group) || ctx.only.includes(c.id));
}
