// The performance targets (docs/performance.md), judged from one run's results:
// held, missed, or not measured.
const fmt = (x) => (x === null || x === undefined ? "error" : `${x}×`);

/** A case's goals at one size: [{ against, max, rss?, value, held }]. */
export function judgeGoals(r) {
  return (r.goals ?? []).map((g) => {
    const ref = r.sides[g.against];
    // `over`: the side over the plugin (the single binary against the npm bin), as its ratio is.
    const [a, b] = ref?.over ? [ref, r.sides.plugin] : [r.sides.plugin, ref];
    const value = g.rss ? (a?.peakRssMb && b?.peakRssMb ? Math.round((a.peakRssMb / b.peakRssMb) * 100) / 100 : null) : (r.ratios[g.against] ?? null);
    return { ...g, value, held: value === null ? null : value <= g.max };
  });
}

function verdict(entries) {
  if (entries.length === 0 || entries.some((e) => e.held === null)) return entries.length === 0 ? null : entries.some((e) => e.held === false) ? false : null;
  return entries.every((e) => e.held);
}

export function evaluateTargets(report) {
  const all = report.sizes.flatMap((s) => s.results.map((r) => ({ ...r, size: s.size, judged: judgeGoals(r) })));
  const goalsOf = (pred, against, rss = false) =>
    all.flatMap((r) => (pred(r) ? r.judged.filter((g) => g.against === against && !!g.rss === rss).map((g) => ({ ...g, id: r.id, size: r.size })) : []));
  const line = (es) => es.map((e) => `${e.id} @${e.size}${e.rss ? " RSS" : ""}: ${fmt(e.value)}${e.held === false ? " ✗" : ""}`).join(", ");
  const targets = [];
  const push = (name, es) => targets.push({ name, held: verdict(es), detail: line(es) || "not measured" });

  push(
    "single-object commands ≤ 1.20× their floor (same requests by raw node:https), at every size",
    goalsOf((r) => r.group === "single", "floor"),
  );
  push(
    "`status S` ≤ 1.5× `kubectl get ptahschema S -o yaml`, npm bin",
    goalsOf((r) => r.id === "status-one", "kubectl"),
  );
  push(
    "offline commands, npm bin ≤ 1.15× `node -e 0`",
    goalsOf((r) => r.group === "offline" && r.id.endsWith("-npm"), "node"),
  );
  push(
    "offline commands, single binary ≤ 1.10× `node -e 0`",
    goalsOf((r) => r.group === "offline" && r.id.endsWith("-binary"), "node"),
  );
  push("the single binary ≤ 1.03× the npm bin on every row, and ≤ its peak RSS", [
    ...goalsOf(() => true, "npm"),
    ...goalsOf(() => true, "npm", true),
    ...goalsOf(() => true, "binary"),
    ...goalsOf(() => true, "binary", true),
  ]);

  const statusOne = all.filter((r) => r.id === "status-one" && r.sides.plugin.medianMs);
  const first = statusOne.find((r) => r.size === 100);
  const last = statusOne.find((r) => r.size === 5000);
  const growth = first && last ? Math.round((last.sides.plugin.medianMs / first.sides.plugin.medianMs) * 100) / 100 : null;
  targets.push({
    name: "`status S` at 5,000 schemas ≤ 1.3× its time at 100",
    held: growth === null ? null : growth <= 1.3,
    detail: growth === null ? "needs sizes 100 and 5000" : `${first.sides.plugin.medianMs} ms → ${last.sides.plugin.medianMs} ms = ${growth}×`,
  });

  push(
    "`status -A` / `approvals -A` ≤ 1.1× kubectl -o json at 100 schemas and ≤ 0.5× at 5,000",
    goalsOf((r) => r.id === "status-all" || r.id === "approvals-all", "kubectl"),
  );

  const at5000 = all.filter((r) => r.size === 5000 && r.group === "lists" && r.sides.plugin.peakRssMb);
  targets.push({
    name: "peak RSS ≤ 120 MB at 5,000 schemas, every list command",
    held: at5000.length ? at5000.every((r) => r.sides.plugin.peakRssMb <= 120) : null,
    detail: at5000.length
      ? at5000.map((r) => `${r.id}: ${r.sides.plugin.peakRssMb} MB${r.sides.plugin.peakRssMb > 120 ? " ✗" : ""} (kubectl ${r.sides.kubectl?.peakRssMb ?? "-"} MB)`).join(", ")
      : "not measured at 5,000",
  });
  const planRss = goalsOf((r) => r.id === "plan-8mib", "kubectl", true);
  targets.push({
    name: "peak RSS of the 8 MiB plan ≤ kubectl's for the same reads",
    held: verdict(planRss),
    detail:
      all
        .filter((r) => r.id === "plan-8mib")
        .map((r) => `@${r.size}: ${r.sides.plugin.peakRssMb} / ${r.sides.kubectl.peakRssMb} MB`)
        .join(", ") || "not measured",
  });
  push(
    "`approve S` ≤ 1.0× the seed's kubectl+jq pipeline",
    goalsOf((r) => r.id === "approve", "pipeline"),
  );
  push(
    "8 MiB plan ≤ 1.5× kubectl's reads of the same objects",
    goalsOf((r) => r.id === "plan-8mib", "kubectl"),
  );
  push(
    "`diff` of two 8 MiB plans ≤ 2.5× `plan -o sql` of one",
    goalsOf((r) => r.id === "diff-8mib", "planSql"),
  );
  push("`plan --locks` of the 8 MiB plan ≤ 2× `plan -o sql` of it, time and peak RSS", [
    ...goalsOf((r) => r.id === "locks-8mib", "planSql"),
    ...goalsOf((r) => r.id === "locks-8mib", "planSql", true),
  ]);
  push(
    "`ledger -A` / `inbox -A` ≤ 1.2× kubectl -o json",
    goalsOf((r) => r.id === "ledger-all" || r.id === "inbox-all", "kubectl"),
  );
  const fleet = all.filter((r) => r.id === "inbox-fleet-50");
  const fleetGoals = goalsOf((r) => r.id === "inbox-fleet-50", "slowest");
  const fleetRss = fleet.map((r) => r.sides.plugin.peakRssMb).filter((x) => x);
  targets.push({
    name: "`inbox --all-contexts` over 50 contexts ≤ 1.3× its slowest context alone, peak RSS ≤ 120 MB",
    held: fleetGoals.length === 0 || fleetRss.length === 0 ? null : verdict(fleetGoals) !== false && fleetRss.every((x) => x <= 120),
    detail: fleet.length ? `${line(fleetGoals)}; peak RSS ${fleetRss.map((x) => `${x} MB${x > 120 ? " ✗" : ""}`).join(", ")}` : "not measured",
  });
  const guarded = all.find((r) => r.id === "guard-cost" && r.sides.unguarded?.medianMs && r.sides.plugin.medianMs);
  const guardMs = guarded ? Math.round((guarded.sides.plugin.medianMs - guarded.sides.unguarded.medianMs) * 100) / 100 : null;
  targets.push({
    name: "the process and egress guards cost under 1 ms at start (`explain stale`, npm bin, median minus an unguarded copy's)",
    held: guardMs === null ? null : guardMs < 1,
    detail: guardMs === null ? "not measured" : `${guarded.sides.plugin.medianMs} ms − ${guarded.sides.unguarded.medianMs} ms = ${guardMs} ms`,
  });
  const requests = all.filter((r) => r.requestsHeld !== null);
  targets.push({
    name: "requests: the plugin sent exactly the expected requests (audit log)",
    held: requests.length ? requests.every((r) => r.requestsHeld) : null,
    detail:
      requests
        .filter((r) => !r.requestsHeld)
        .map((r) => `${r.id} @${r.size}: ${r.sides.plugin.requestCount}/${r.expectedRequests}`)
        .join(", ") || `all ${requests.length} as expected`,
  });
  return targets;
}
