// .ci/commit-messages.mjs (a step of .ci/run) in scratch repositories: a subject over 72 characters
// and a code change without a body fail it, a Markdown-only change needs no body, the commits up to
// the base are not judged, and a clone without the base's history fails it loudly (exit 2) instead
// of passing with nothing checked.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = path.resolve(import.meta.dirname, "..", ".ci", "commit-messages.mjs");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-commit-messages-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

function git(cwd: string, ...argv: string[]): string {
  const r = spawnSync("git", argv, { cwd, env: ENV, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${argv.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

let repos = 0;
/** A repository whose first commit (the base) has a long subject and no body, as the old history does. */
function repo(): { dir: string; base: string; commit: (file: string, message: string) => void } {
  const dir = path.join(scratch, `r${repos++}`);
  fs.mkdirSync(dir);
  git(dir, "init", "-q", "-b", "main");
  const commit = (file: string, message: string): void => {
    fs.writeFileSync(path.join(dir, file), `${file} ${Math.random()}\n`);
    git(dir, "add", file);
    git(dir, "commit", "-q", "-m", message);
  };
  commit("a.ts", "x".repeat(150));
  return { dir, base: git(dir, "rev-parse", "HEAD"), commit };
}

function check(cwd: string, base: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [SCRIPT, "--base", base], { cwd, env: ENV, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("commit messages (.ci/commit-messages.mjs)", () => {
  it("passes subjects of at most 72 characters with a body for code; a Markdown change needs none", () => {
    const { dir, base, commit } = repo();
    commit("b.ts", `${"s".repeat(72)}\n\nThe reason.`);
    commit("c.md", "Docs: a page without a body");
    const r = check(dir, base);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^commit messages: 2 commits after /u);
    expect(r.status).toBe(0);
  });

  it("names a planted subject of 73 characters", () => {
    const { dir, base, commit } = repo();
    commit("b.ts", "Fine subject\n\nWhy.");
    commit("c.ts", `${"s".repeat(73)}\n\nWhy.`);
    const r = check(dir, base);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`"${"s".repeat(73)}": the subject is 73 characters (at most 72)`);
    expect(r.stderr).toContain("1 of 2 commits");
  });

  it("counts characters, not bytes", () => {
    const { dir, base, commit } = repo();
    commit("b.ts", `${"—".repeat(72)}\n\nWhy.`);
    expect(check(dir, base).status).toBe(0);
  });

  it("names a code change without a body", () => {
    const { dir, base, commit } = repo();
    commit("b.ts", "Code without a reason");
    const r = check(dir, base);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('"Code without a reason": changes code (b.ts) but has no body saying why');
  });

  it("fails loudly in a shallow clone that cannot fetch the base's history", () => {
    const { dir, base, commit } = repo();
    commit("b.ts", "Fine\n\nWhy.");
    commit("c.ts", "Also fine\n\nWhy.");
    const shallow = path.join(scratch, `r${repos++}`);
    git(scratch, "clone", "-q", "--depth", "1", `file://${dir}`, shallow);
    git(shallow, "remote", "remove", "origin");
    const r = check(shallow, base);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("a shallow clone and git fetch --unshallow failed");
  });

  it("deepens a shallow clone that can fetch, then judges every commit", () => {
    const { dir, base, commit } = repo();
    commit("b.ts", `${"s".repeat(80)}\n\nWhy.`);
    commit("c.ts", "Fine\n\nWhy.");
    const shallow = path.join(scratch, `r${repos++}`);
    git(scratch, "clone", "-q", "--depth", "1", `file://${dir}`, shallow);
    const r = check(shallow, base);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("the subject is 80 characters");
  });

  it("fails loudly when the base is not in the clone or not below HEAD", () => {
    const { dir, commit } = repo();
    commit("b.ts", "Fine\n\nWhy.");
    expect(check(dir, "0".repeat(40))).toMatchObject({ status: 2, stdout: "" });
    const other = repo();
    expect(check(dir, other.base).stderr).toContain("is not in this clone");
    git(dir, "checkout", "-q", "-b", "side", "HEAD~1");
    commit("d.ts", "Side\n\nWhy.");
    const sideBase = git(dir, "rev-parse", "HEAD");
    git(dir, "checkout", "-q", "main");
    expect(check(dir, sideBase)).toMatchObject({ status: 2, stderr: expect.stringContaining("does not descend") as unknown });
  });
});
