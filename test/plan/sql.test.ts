import { describe, expect, it } from "vitest";
import { readSql } from "../../src/plan/sql.ts";

const kinds = (sql: string, dialect = "postgres") => [...readSql(sql, dialect).privilegeKinds].sort();

describe("readSql", () => {
  it.each<{ name: string; sql: string; dialect?: string; want: string[] }>([
    { name: "a grant on an object", sql: 'GRANT SELECT ON "t" TO "r"', want: ["Grant"] },
    { name: "a role membership grant", sql: 'GRANT "admin" TO "alice"', want: ["RoleMembership"] },
    { name: "a revoke on an object", sql: "REVOKE INSERT ON t FROM r", want: ["Revoke"] },
    { name: "a role membership revoke", sql: "REVOKE admin FROM alice", want: ["RoleMembership"] },
    { name: "default privileges", sql: "ALTER DEFAULT PRIVILEGES IN SCHEMA s GRANT SELECT ON TABLES TO r", want: ["Grant"] },
    { name: "a role", sql: "CREATE ROLE reporting NOLOGIN", want: ["Role"] },
    { name: "an ownership change", sql: "ALTER TABLE t OWNER TO app", want: ["Ownership"] },
    { name: "a policy", sql: "CREATE POLICY p ON t USING (true)", want: ["RowSecurityPolicy"] },
    { name: "row level security", sql: "ALTER TABLE t ENABLE ROW LEVEL SECURITY", want: ["RowSecurityPolicy"] },
    { name: "a security definer function", sql: "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql SECURITY DEFINER", want: ["SecurityDefiner"] },
    { name: "a function replacement", sql: "CREATE OR REPLACE FUNCTION f() RETURNS int AS 'select 1' LANGUAGE sql", want: ["FunctionReplacement"] },
    { name: "a MySQL definer", sql: "CREATE DEFINER = `admin`@`%` VIEW v AS SELECT 1", dialect: "mysql", want: ["Definer"] },
    { name: "GRANT inside a string literal", sql: "INSERT INTO t VALUES ('GRANT ALL ON x TO y')", want: [] },
    { name: "GRANT inside a comment", sql: "SELECT 1 -- GRANT ALL ON x TO y\n", want: [] },
    { name: "GRANT inside a block comment", sql: "SELECT /* GRANT ALL ON x TO y */ 1", want: [] },
    { name: "GRANT inside a dollar-quoted body", sql: "CREATE FUNCTION f() RETURNS void AS $fn$ BEGIN EXECUTE 'x'; GRANT ALL ON x TO y; END $fn$ LANGUAGE plpgsql", want: [] },
    { name: "an escaped quote in an E string", sql: "SELECT E'it\\'s'; GRANT SELECT ON t TO r", want: ["Grant"] },
    { name: "a quoted identifier named like a keyword", sql: 'SELECT "GRANT" FROM t', want: [] },
    { name: "two statements in one text", sql: "GRANT SELECT ON t TO r; ALTER TABLE t OWNER TO o", want: ["Grant", "Ownership"] },
  ])("reads $name", ({ sql, dialect, want }) => {
    expect(kinds(sql, dialect)).toEqual([...want].sort());
  });

  it.each([
    ["CREATE ROLE app LOGIN PASSWORD 'x'", true],
    ["ALTER USER app IDENTIFIED BY 'x'", true],
    ["SET PASSWORD FOR app = 'x'", true],
    ["DROP ROLE app", false],
    ["INSERT INTO t VALUES ('PASSWORD')", false],
  ] as const)("knows whether %s carries credentials", (sql, want) => {
    expect(readSql(sql, "postgres").carriesCredentials).toBe(want);
  });

  it.each([
    ["DROP TABLE t", true],
    ["TRUNCATE t", true],
    ["ALTER TABLE t DROP COLUMN c", true],
    ["ALTER TABLE t DROP c", true],
    ["ALTER TABLE t ALTER COLUMN c TYPE bigint", true],
    ["ALTER TABLE t DROP CONSTRAINT k", false],
    ["ALTER TABLE t ALTER COLUMN c DROP DEFAULT", false],
    ["DROP INDEX i", false],
    ["CREATE TABLE t (id int)", false],
  ] as const)("knows whether %s is destructive", (sql, want) => {
    expect(readSql(sql, "postgres").destructive).toBe(want);
  });
});
