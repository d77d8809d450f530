// The cross-check against an independent linter: squawk (PyPI's squawk-cli, pinned in
// test/locks/squawk-tool.mjs) reads the lock-trace corpus, one statement per line; every finding
// of a squawk rule we claim to cover must be matched by one of our findings on the same statement,
// or be in the reviewed waiver table below with its reason (most are where PostgreSQL itself, in
// the lock-trace oracle, shows the statement does not do what squawk's rule fears). A waiver that
// no longer matches anything fails too, so the table stays true. squawk is a machine tool: without
// it the test is skipped and named (required under CI, where .ci/run fetches it).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyseStatements } from "../../src/locks/index.ts";
import { needTool } from "../support/machine-tools.ts";
import { CORPUS, setupOf, type LockCase } from "./corpus.ts";

/** squawk's rules about locks and rewrites, and the codes of ours that answer each. */
const COVERED: Readonly<Record<string, readonly string[]>> = {
  "require-concurrent-index-creation": ["index-not-concurrent"],
  "require-concurrent-index-deletion": ["drop-index-not-concurrent"],
  // A UNIQUE or PRIMARY KEY constraint cannot be NOT VALID: its index build is what answers it.
  "constraint-missing-not-valid": ["foreign-key-validates", "check-validates", "constraint-builds-index"],
  "adding-foreign-key-constraint": ["foreign-key-validates"],
  "adding-not-nullable-field": ["set-not-null-scan", "not-null-without-default"],
  "adding-required-field": ["not-null-without-default"],
  "changing-column-type": ["type-change-rewrite"],
  "adding-field-with-default": ["volatile-default-rewrite"],
  "disallowed-unique-constraint": ["constraint-builds-index"],
  "adding-serial-primary-key-field": ["constraint-builds-index"],
  "ban-concurrent-index-creation-in-transaction": ["concurrently-in-transaction"],
};

interface Waiver {
  readonly rule: string;
  /** The corpus case names it covers (a prefix: the generated variants share one). */
  readonly cases: readonly string[];
  readonly reason: string;
}

/** Reviewed: each is a squawk finding we deliberately do not raise, and why. */
const WAIVERS: readonly Waiver[] = [
  {
    rule: "adding-foreign-key-constraint",
    cases: ["add column references"],
    reason:
      "a new column without a default holds no value, so PostgreSQL checks no row (the oracle: catalog-only); the SHARE ROW EXCLUSIVE on the referenced table is in the statement's locks. With a default it scans, and we say foreign-key-validates",
  },
  {
    rule: "changing-column-type",
    cases: [
      "type: varchar widened",
      "type: varchar to unbounded varchar",
      "type: varchar to text",
      "type: text to varchar",
      "type: numeric widened",
      "type: numeric to unbounded",
      "type: cidr to inet",
      "type: same type",
      "type: USING cast to itself",
    ],
    reason:
      "the plan states the column's type and the change is a widening or binary-coercible: PostgreSQL rewrites nothing (the oracle: catalog-only, same relfilenode); without the column's type in the plan we assume a rewrite and do raise type-change-rewrite",
  },
  {
    rule: "adding-not-nullable-field",
    cases: ["set not null with a valid check", "set not null on a NOT NULL column"],
    reason: "the plan proves the column not null (a valid CHECK (col IS NOT NULL), or the column is NOT NULL already): PostgreSQL skips the scan (the oracle: catalog-only)",
  },
];

interface SquawkFinding {
  line: number;
  rule_name: string;
}

function squawk(bin: string, cases: readonly LockCase[]): SquawkFinding[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-squawk-"));
  try {
    const file = path.join(dir, "corpus.sql");
    fs.writeFileSync(file, cases.map((k) => `${k.sql};\n`).join(""));
    const r = spawnSync(bin, ["--reporter", "json", "--pg-version", "15.0", file], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    if (r.error) throw r.error;
    return JSON.parse(r.stdout) as SquawkFinding[];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("the squawk cross-check over the lock-trace corpus", () => {
  it("every squawk finding in a rule we cover is one of ours on the same statement, or a reviewed waiver", async (ctx) => {
    const bin = needTool(ctx, "squawk");
    expect(CORPUS.every((k) => !k.sql.includes("\n"))).toBe(true);
    const findings = squawk(bin, CORPUS);
    expect(findings.length).toBeGreaterThan(0);
    const unmatched: string[] = [];
    const used = new Set<Waiver>();
    for (const f of findings) {
      const codes = COVERED[f.rule_name];
      if (!codes) continue;
      const k = CORPUS[f.line]!;
      const report = await analyseStatements(
        [...(k.knows ? setupOf(k) : []), k.sql].map((sql) => ({ sql })),
        { transactionMode: "none" },
        "postgres",
      );
      const ours = report.statements[report.statements.length - 1]!.findings.map((x) => x.code);
      if (ours.some((c) => codes.includes(c))) continue;
      const waiver = WAIVERS.find((w) => w.rule === f.rule_name && w.cases.some((c) => k.name.startsWith(c)));
      if (waiver) used.add(waiver);
      else unmatched.push(`${f.rule_name} on "${k.name}": ${k.sql} (ours: ${ours.join(", ") || "none"})`);
    }
    expect(unmatched).toEqual([]);
    expect(WAIVERS.filter((w) => !used.has(w)).map((w) => `${w.rule}: ${w.cases.join(", ")}`)).toEqual([]);
  });
});
