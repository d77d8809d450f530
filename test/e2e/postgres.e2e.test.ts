// The lab's PostgreSQL and the simulator's database layer on it: the cluster runs unprivileged on
// 127.0.0.1 only and postgres.json describes it; the planner's SQL runs on the real server and
// the catalog read back is the desired model; a plan runs in one transaction, so a statement
// the server refuses mid-plan leaves nothing of the plan behind (schema and migration alike).
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { diff, modelFingerprint, resolveSchema, type Model } from "../sim/catalog.ts";
import { Databases, databaseName } from "../sim/database.ts";
import { connectionFromEnv, psql, type Connection } from "../sim/psql.ts";
import { labEnv, uniqueName } from "../support/lab.ts";

let conn: Connection;
let dbs: Databases;
let info: { host: string; port: number; user: string; version: string; pid: number; dataDir: string };

beforeAll(() => {
  const file = path.join(labEnv().labDir, "postgres.json");
  info = JSON.parse(fs.readFileSync(file, "utf8")) as typeof info;
  conn = connectionFromEnv({ PTAH_LAB_POSTGRES: file });
  dbs = new Databases(conn);
});

// The catalog read names the database's own schemas always (none here: `schemas: []`); the
// demo's desired models declare none, so they leave the key out (catalog.ts: absent, not compared).
function schema(version: number): Model {
  const r = resolveSchema(`oci://registry.lab/schemas/demo:v${version}`);
  if ("error" in r) throw new Error(r.error);
  return r.model;
}

const show = async (setting: string) => (await psql(conn, "postgres", `SHOW ${setting};`)).trim();

describe("the lab's PostgreSQL", () => {
  it("runs as an unprivileged user, on 127.0.0.1 only, as postgres.json says", async () => {
    const uid = Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${info.pid}/status`, "utf8"))?.[1]);
    expect(uid).not.toBe(0);
    expect(fs.readFileSync(`/proc/${info.pid}/cmdline`, "utf8")).toContain(info.dataDir);
    expect(info.dataDir.startsWith(labEnv().labDir) || fs.realpathSync(path.join(labEnv().labDir, "postgres", "data")) === info.dataDir).toBe(true);
    expect(info.host).toBe("127.0.0.1");
    expect(await show("listen_addresses")).toBe("127.0.0.1");
    expect(await show("unix_socket_directories")).toBe("");
    expect(await show("server_version")).toBe(info.version);
  });
});

describe("the simulator's database on it", () => {
  const owner = (id: string) => ({ ns: uniqueName(`pg-${id}`), name: "storefront" });

  it("names one database per owner, creating it on first use", async () => {
    const o = owner("create");
    expect(databaseName(o.ns, o.name)).toBe(`${o.ns}/storefront`);
    expect(await dbs.readModel(o.ns, o.name)).toEqual({ tables: [], schemas: [] });
    const listed = await psql(conn, "postgres", `SELECT datname FROM pg_database WHERE datname = :'db';`, { vars: { db: databaseName(o.ns, o.name) } });
    expect(listed.trim()).toBe(databaseName(o.ns, o.name));
    expect(databaseName("n".repeat(40), "x".repeat(60))).toHaveLength(63);
  });

  it.each([
    [1, 2],
    [2, 3],
    [3, 1],
  ])("the plan v%i → v%i runs on PostgreSQL and the catalog then reads as the desired model", async (from, to) => {
    const o = owner(`plan${from}${to}`);
    await dbs.apply(
      o.ns,
      o.name,
      diff({ tables: [] }, schema(from)).statements.map((s) => s.sql),
    );
    const actual = await dbs.readModel(o.ns, o.name);
    expect(actual).toEqual({ schemas: [], ...schema(from) });
    await dbs.apply(
      o.ns,
      o.name,
      diff(actual, schema(to)).statements.map((s) => s.sql),
    );
    const after = await dbs.readModel(o.ns, o.name);
    expect(after).toEqual({ schemas: [], ...schema(to) });
    expect(modelFingerprint(after)).toBe(modelFingerprint(schema(to)));
  });

  it("a statement refused mid-plan rolls the whole plan back", async () => {
    const o = owner("rollback");
    const plan = [
      'CREATE TABLE "customers" ("id" bigint NOT NULL, PRIMARY KEY ("id"))',
      'ALTER TABLE "orders" ADD COLUMN "note" text',
      'CREATE TABLE "invoices" ("id" bigint NOT NULL)',
    ];
    await expect(dbs.apply(o.ns, o.name, plan)).rejects.toThrow(/relation "orders" does not exist/);
    expect(await dbs.readModel(o.ns, o.name)).toEqual({ tables: [], schemas: [] });
  });

  it("a refused migration records no revision either, a committed one records each version", async () => {
    const o = owner("revisions");
    const rows = [
      { version: 1, description: "create invoices", checksum: "sha256:1" },
      { version: 2, description: "broken", checksum: "sha256:2" },
    ];
    await expect(dbs.apply(o.ns, o.name, ['CREATE TABLE "invoices" ("id" bigint NOT NULL)', 'ALTER TABLE "nope" ADD COLUMN "x" text'], rows)).rejects.toThrow(/does not exist/);
    expect(await dbs.readRevisions(o.ns, o.name)).toEqual([]);
    expect(await dbs.readModel(o.ns, o.name)).toEqual({ tables: [], schemas: [] });
    await dbs.apply(o.ns, o.name, ['CREATE TABLE "invoices" ("id" bigint NOT NULL)'], rows.slice(0, 1));
    expect(await dbs.readRevisions(o.ns, o.name)).toEqual([expect.objectContaining({ version: 1, description: "create invoices", checksum: "sha256:1" })]);
    expect((await dbs.readModel(o.ns, o.name)).tables.map((t) => t.name)).toEqual(["invoices"]);
  });
});
