// docs/rbac.md's RBAC table is the commands' permission declarations (commands/shared/permissions.ts), row for
// row: the table between <!-- rbac:start --> and <!-- rbac:end --> must be exactly what rbacTable
// writes from the registry. A form added, a rule changed, and this fails with the table to paste.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_COMMANDS } from "../../src/commands/all-commands.ts";
import { formNeeds } from "./command-page.ts";

const PAGE = path.resolve(import.meta.dirname, "..", "..", "docs", "rbac.md");

export function rbacTable(): string {
  const rows = ALL_COMMANDS.flatMap((c) =>
    c.permissions.map((f) => {
      return `| \`${f.form.replace(/\|/gu, "\\|")}\` | ${formNeeds(f)} |`;
    }),
  );
  return ["| command | verbs (namespaced unless said) |", "| --- | --- |", ...rows, "| `--version`, `--help` | nothing (no cluster) |"].join("\n");
}

describe("docs/rbac.md RBAC table", () => {
  it("is generated from the commands' declarations", () => {
    const text = fs.readFileSync(PAGE, "utf8");
    const m = /<!-- rbac:start -->\n([\s\S]*?)\n<!-- rbac:end -->/u.exec(text);
    expect(m, "docs/rbac.md has no <!-- rbac:start --> … <!-- rbac:end --> section").not.toBeNull();
    expect(m![1], `docs/rbac.md's RBAC table differs; it should read:\n${rbacTable()}\n`).toBe(rbacTable());
  });
});
