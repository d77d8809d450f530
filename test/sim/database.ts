// The simulated database of one PtahSchema or PtahMigration: a ConfigMap `<name>-database` in
// its namespace. `model.json` is the state the simulator reads and writes; the other keys are
// what a person would see with psql (`tables` ≈ \dt, `<table>` ≈ \d <table>,
// `ptah_schema_migrations` = the revision table, `applied.sql` = every statement that ran), so a
// scenario can check "what ran" with kubectl only. Absent ConfigMap = an empty database.
import { ApiError, resourcePath, type Kube, type Obj } from "./kube.ts";
import { describeTable, listTables, renderRevisions, type Model, type RevisionRow } from "./catalog.ts";

export interface Database {
  model: Model;
  revisions: RevisionRow[];
  /** Append-only log of statements that ran (comments name the plan/run). */
  log: string;
}

export const databaseName = (owner: string): string => `${owner}-database`;

export async function readDatabase(kube: Kube, namespace: string, owner: string): Promise<Database> {
  const cm = await kube.get(resourcePath("configmaps", namespace, databaseName(owner), ""));
  const raw = cm?.data?.["model.json"];
  if (!raw) return { model: { tables: [] }, revisions: [], log: "" };
  const parsed = JSON.parse(raw) as { model?: Model; revisions?: RevisionRow[] };
  return { model: parsed.model ?? { tables: [] }, revisions: parsed.revisions ?? [], log: cm?.data?.["applied.sql"] ?? "" };
}

export async function writeDatabase(kube: Kube, namespace: string, owner: string, db: Database): Promise<void> {
  const data: Record<string, string> = {
    "model.json": JSON.stringify({ model: db.model, revisions: db.revisions }, null, 2) + "\n",
    tables: listTables(db.model, owner),
    "applied.sql": db.log,
  };
  for (const t of db.model.tables) data[t.name] = describeTable(t);
  if (db.revisions.length > 0) data.ptah_schema_migrations = renderRevisions(db.revisions);
  const path = resourcePath("configmaps", namespace, databaseName(owner), "");
  const body: Obj = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: databaseName(owner),
      namespace,
      labels: { "app.kubernetes.io/managed-by": "ptah-operator-simulator", "lab.ptah.run/database-of": owner },
    },
    data,
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await kube.get(path);
    try {
      if (existing) await kube.put(path, { ...body, metadata: { ...body.metadata, resourceVersion: existing.metadata.resourceVersion } });
      else await kube.create(resourcePath("configmaps", namespace, undefined, ""), body);
      return;
    } catch (err) {
      if (err instanceof ApiError && (err.status === 409 || err.status === 404)) continue;
      throw err;
    }
  }
  throw new Error(`could not write ${namespace}/${databaseName(owner)} after 5 attempts`);
}
