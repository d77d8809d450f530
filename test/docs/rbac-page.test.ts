// docs/rbac.md's RBAC table is the commands' permission declarations (commands/shared/permissions.ts), row for
// row: the table between <!-- rbac:start --> and <!-- rbac:end --> must be exactly what rbacTable
// writes from the registry. A form added, a rule changed, and this fails with the table to paste.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_COMMANDS } from "../../src/commands/all-commands.ts";
import { formNeeds, sectionOf, writeSection } from "./command-page.ts";

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
    if (process.env.PTAH_WRITE_DOCS === "1") return writeSection(PAGE, "rbac", rbacTable());
    expect(sectionOf(PAGE, "rbac"), "docs/rbac.md's RBAC table differs from the declarations: run npm run docs").toBe(rbacTable());
  });
});
