// The Ptah operator simulator: one long-lived process, run by the lab (lab/simulator.ts) with
// the lab-admin identity. It serves the approval admission webhooks and runs watch-driven
// controllers for PtahSchema and PtahMigration in namespaces labelled
// lab.ptah.run/operator-simulator=enabled. It writes <lab>/sim.json once it is ready (webhooks
// registered, every watch listed), which the lab waits for.
//
// Environment: PTAH_LAB_JSON (lab.json), PTAH_LAB_DIR, PTAH_LAB_POSTGRES (the lab's postgres.json;
// else PGHOST/PGPORT/PGUSER), PTAH_SIM_STEP_MS (pacing between phases, default 200),
// PTAH_SIM_BUNDLE_DIGEST (recorded in sim.json so the lab can restart a stale build).
import fs from "node:fs";
import path from "node:path";
import { MANAGED_LABEL, MANAGED_VALUE } from "./common.ts";
import { Databases } from "./database.ts";
import { Kube, resourcePath, type LabState, type Obj } from "./kube.ts";
import { MigrationController } from "./migration-controller.ts";
import { connectionFromEnv } from "./psql.ts";
import { WorkQueue } from "./queue.ts";
import { SchemaController } from "./schema-controller.ts";
import { startWebhookServer } from "./webhook-server.ts";

function log(message: string): void {
  process.stdout.write(`${new Date().toISOString()} ${message}\n`);
}

async function main(): Promise<void> {
  const labDir = path.resolve(process.env.PTAH_LAB_DIR ?? ".lab");
  const labJson = process.env.PTAH_LAB_JSON ?? path.join(labDir, "lab.json");
  const lab = JSON.parse(fs.readFileSync(labJson, "utf8")) as LabState;
  const readyFile = path.join(labDir, "sim.json");
  fs.rmSync(readyFile, { force: true });
  const stepMs = Number(process.env.PTAH_SIM_STEP_MS ?? 200);
  const kube = new Kube(lab);

  let previousPort: number | undefined;
  try {
    previousPort = JSON.parse(fs.readFileSync(path.join(labDir, "sim-port.json"), "utf8")).port;
  } catch {
    /* first start */
  }
  const webhook = await startWebhookServer(kube, labDir, previousPort, log);
  fs.writeFileSync(path.join(labDir, "sim-port.json"), JSON.stringify({ port: webhook.port }) + "\n");
  log(`admission webhooks listening on https://127.0.0.1:${webhook.port} and registered (namespaces labelled ${MANAGED_LABEL}=${MANAGED_VALUE})`);

  const dbs = new Databases(connectionFromEnv());
  const schemas = new SchemaController(kube, log, stepMs, dbs);
  const migrations = new MigrationController(kube, log, stepMs, dbs);
  const queue = new WorkQueue(async (key) => {
    const [kind, ns, name] = key.split("/") as [string, string, string];
    return kind === "schema" ? schemas.reconcile(ns, name) : migrations.reconcile(ns, name);
  }, log);

  // Which namespaces are ours: a watch on the label, plus a direct read for namespaces not seen yet
  // (an object's event can arrive before its namespace's).
  const managed = new Set<string>();
  const notManagedUntil = new Map<string, number>();
  const isManaged = async (ns: string | undefined): Promise<boolean> => {
    if (!ns) return false;
    if (managed.has(ns)) return true;
    if ((notManagedUntil.get(ns) ?? 0) > Date.now()) return false;
    const obj = await kube.get(resourcePath("namespaces", undefined, ns, "")).catch(() => undefined);
    if (obj?.metadata.labels?.[MANAGED_LABEL] === MANAGED_VALUE) {
      managed.add(ns);
      return true;
    }
    notManagedUntil.set(ns, Date.now() + 1_000);
    return false;
  };
  const enqueueNamespace = async (ns: string) => {
    for (const s of await kube.list(resourcePath("ptahschemas", ns))) queue.add(`schema/${ns}/${s.metadata.name}`);
    for (const m of await kube.list(resourcePath("ptahmigrations", ns))) queue.add(`migration/${ns}/${m.metadata.name}`);
  };

  const stop = { stopped: false };
  const synced: Promise<void>[] = [];
  const watch = (p: string, route: (type: string, obj: Obj) => void | Promise<void>) => {
    let resolveSynced!: () => void;
    synced.push(new Promise<void>((r) => (resolveSynced = r)));
    void kube.watchForever(
      p,
      (type, obj) => void Promise.resolve(route(type, obj)).catch((err) => log(`route ${p}: ${(err as Error).message}`)),
      log,
      stop,
      () => resolveSynced(),
    );
  };

  watch(`/api/v1/namespaces?labelSelector=${encodeURIComponent(`${MANAGED_LABEL}=${MANAGED_VALUE}`)}`, async (type, ns) => {
    if (type === "DELETED") {
      managed.delete(ns.metadata.name);
      return;
    }
    if (!managed.has(ns.metadata.name)) {
      managed.add(ns.metadata.name);
      await enqueueNamespace(ns.metadata.name);
    }
  });
  const routeTo = (kind: "schema" | "migration", nameOf: (o: Obj) => string | undefined) => async (_type: string, obj: Obj) => {
    const ns = obj.metadata.namespace;
    const name = nameOf(obj);
    if (!name || !(await isManaged(ns))) return;
    queue.add(`${kind}/${ns}/${name}`);
  };
  watch(
    resourcePath("ptahschemas"),
    routeTo("schema", (o) => o.metadata.name),
  );
  watch(
    resourcePath("ptahschemaapprovals"),
    routeTo("schema", (o) => o.spec?.schemaRef?.name),
  );
  watch(
    resourcePath("ptahmigrations"),
    routeTo("migration", (o) => o.metadata.name),
  );
  watch(
    resourcePath("ptahmigrationapprovals"),
    routeTo("migration", (o) => o.spec?.migrationRef?.name),
  );
  watch(
    resourcePath("ptahmigrationrunacknowledgments"),
    routeTo("migration", (o) => o.spec?.migrationRef?.name),
  );

  await Promise.all(synced);
  fs.writeFileSync(
    readyFile,
    JSON.stringify(
      { pid: process.pid, ready: true, port: webhook.port, startedAt: new Date().toISOString(), bundleDigest: process.env.PTAH_SIM_BUNDLE_DIGEST ?? "", stepMs },
      null,
      2,
    ) + "\n",
  );
  log(`ready (pid ${process.pid}, step ${stepMs}ms)`);

  const shutdown = (signal: string) => {
    log(`${signal}: stopping`);
    stop.stopped = true;
    webhook.close();
    fs.rmSync(readyFile, { force: true });
    process.exit(0);
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((err) => {
  log(`fatal: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
