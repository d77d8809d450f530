// The reference pages are the declarations: docs/commands/<verb>.md's generated block must be
// exactly what test/docs/command-page.ts writes from the command (usage, examples, flags with
// their defaults, -o formats, exit statuses, the RBAC rows doctor reads), one page per command of
// `kubectl ptah --help`, and no page for a command that is gone. `npm run docs` rewrites the
// blocks (PTAH_WRITE_DOCS=1; refused under CI, so a CI run can only compare).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_COMMANDS as COMMANDS } from "../../src/commands/all-commands.ts";
import { toolsRequired } from "../support/machine-tools.ts";
import { blockOf, referenceBlock, sectionOf, withBlock, writeSection } from "./command-page.ts";

const DIR = path.resolve(import.meta.dirname, "..", "..", "docs", "commands");
const write = process.env.PTAH_WRITE_DOCS === "1";

describe("docs/commands/<verb>.md", () => {
  it("is written only when asked, never under CI", () => {
    expect(write && toolsRequired(), "PTAH_WRITE_DOCS=1 under CI: a CI run compares the pages, it never writes them").toBe(false);
  });

  it.each(COMMANDS.map((c) => [c.name, c] as const))("%s: the reference block is the declaration's", (name, command) => {
    const file = path.join(DIR, `${name}.md`);
    const page = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
    const block = referenceBlock(command);
    if (write) {
      fs.mkdirSync(DIR, { recursive: true });
      fs.writeFileSync(file, withBlock(page, name, block));
      return;
    }
    expect(page, `docs/commands/${name}.md is missing: run npm run docs`).toBeDefined();
    expect(blockOf(page!), `docs/commands/${name}.md differs from the command's declaration: run npm run docs`).toBe(block);
  });

  it("is linked from the README's table, one row per command of the root help, in its order", () => {
    const file = path.resolve(DIR, "..", "..", "README.md");
    const rows = COMMANDS.map((c) => `| [\`${c.name}\`](docs/commands/${c.name}.md) | ${c.summary.replace(/\|/gu, "\\|")} |`);
    const table = ["| command | what it does |", "| --- | --- |", ...rows].join("\n");
    if (write) return writeSection(file, "commands", table);
    expect(sectionOf(file, "commands"), `README's commands table differs from the registry: run npm run docs`).toBe(table);
  });

  it("has a page for every command and none for a command that is not there", () => {
    // options.md is the global flags' page (options-page.test.ts).
    const pages = fs.readdirSync(DIR).filter((f) => f.endsWith(".md") && f !== "README.md" && f !== "options.md");
    expect(pages.map((p) => p.replace(/\.md$/u, "")).sort()).toEqual(COMMANDS.map((c) => c.name).sort());
  });
});
