// Every commit after BASE has a subject of at most 72 characters and, when it changes code (any file
// that is not Markdown), a body: the subject says what changed, the body why. Merge commits are held
// to the subject only (the commits they bring carry the reasons). Exit 0 when all hold, 1 naming each
// commit that does not, 2 when the history from BASE is not here to read (never a silent pass).
//
// A shallow clone is deepened first (`git fetch --unshallow`): a commit below a shallow boundary
// would otherwise go unchecked without a word. `--base <commit>` checks from another commit (the
// test's scratch repositories).
import { spawnSync } from "node:child_process";

// main's head when the rule was adopted: the commits before it (452 of 569 with subjects over 72
// characters) stay as they are, since history is never rewritten; every commit after it is held.
const BASE = "4fed7af80c9d1b0c3526b22712c514422f586c50";
const MAX_SUBJECT = 72;

const args = process.argv.slice(2);
const baseAt = args.indexOf("--base");
const base = baseAt >= 0 ? args[baseAt + 1] : BASE;

function git(...argv) {
  const r = spawnSync("git", argv, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { ok: !r.error && r.status === 0, out: r.stdout ?? "", err: (r.stderr ?? r.error?.message ?? "").trim() };
}

function refuse(message) {
  process.stderr.write(`commit messages: ${message}\n`);
  process.exit(2);
}

if (!base) refuse("--base needs a commit");
if (!git("rev-parse", "--is-inside-work-tree").ok) refuse(`not a git checkout: the check needs the history from ${base}`);

if (git("rev-parse", "--is-shallow-repository").out.trim() === "true") {
  process.stderr.write("commit messages: a shallow clone; fetching the whole history (git fetch --unshallow)\n");
  // With no remote to fetch from, git fetch exits 0 and leaves the clone shallow: asked again.
  const fetched = git("fetch", "--quiet", "--unshallow");
  const still = git("rev-parse", "--is-shallow-repository").out.trim() !== "false";
  if (!fetched.ok || still) refuse(`a shallow clone and git fetch --unshallow failed (${fetched.err || "still shallow"}); clone with the whole history`);
}
if (!git("cat-file", "-e", `${base}^{commit}`).ok) refuse(`the base commit ${base} is not in this clone; fetch the history from it`);
if (!git("merge-base", "--is-ancestor", base, "HEAD").ok) refuse(`HEAD does not descend from the base commit ${base}`);

const listed = git("rev-list", "--parents", `${base}..HEAD`);
if (!listed.ok) refuse(`git rev-list ${base}..HEAD failed: ${listed.err}`);
const commits = listed.out
  .split("\n")
  .filter(Boolean)
  .map((line) => {
    const [sha, ...parents] = line.split(" ");
    return { sha, merge: parents.length > 1 };
  });

const problems = [];
for (const { sha, merge } of commits) {
  const subject = git("log", "-1", "--format=%s", sha).out.replace(/\n$/u, "");
  const body = git("log", "-1", "--format=%b", sha).out.trim();
  const short = sha.slice(0, 10);
  const length = [...subject].length;
  if (length > MAX_SUBJECT) problems.push(`${short} "${subject}": the subject is ${length} characters (at most ${MAX_SUBJECT})`);
  if (merge || body !== "") continue;
  const files = git("diff-tree", "--root", "--no-commit-id", "--name-only", "-r", sha).out.split("\n").filter(Boolean);
  const code = files.filter((f) => !f.endsWith(".md"));
  if (code.length > 0) {
    const named = code.slice(0, 3).join(", ") + (code.length > 3 ? `, … (${code.length} files)` : "");
    problems.push(`${short} "${subject}": changes code (${named}) but has no body saying why`);
  }
}

if (problems.length > 0) {
  process.stderr.write(`commit messages: ${problems.length} of ${commits.length} commits after ${base.slice(0, 10)} break the rule:\n`);
  for (const p of problems) process.stderr.write(`  ${p}\n`);
  process.exit(1);
}
console.log(`commit messages: ${commits.length} commits after ${base.slice(0, 10)}, each subject at most ${MAX_SUBJECT} characters, each code change with a body`);
