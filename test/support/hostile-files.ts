// The hostile inputs every input path is fed (test/guarantees/hostile/hostile-bounds.test.ts): a YAML
// alias bomb, nesting far past the depth bound, and streams that never end.

/** Ten levels of nine aliases each beside an ordinary user with a client-certificate-data (1.4 KB; kubectl: "excessive aliasing"). */
export function aliasBomb(): string {
  const levels = ["  a0: &a0 [x, x, x, x, x, x, x, x, x]"];
  for (let i = 1; i < 10; i++)
    levels.push(
      `  a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(", ")}]`,
    );
  return [
    "apiVersion: v1",
    "kind: Config",
    "preferences:",
    ...levels,
    "clusters:",
    "- name: c",
    "  cluster: {server: 'https://127.0.0.1:1'}",
    "users:",
    "- name: u",
    "  user:",
    `    client-certificate-data: ${"QUFB".repeat(100)}`,
    "contexts:",
    "- name: c",
    "  context: {cluster: c, user: u}",
    "current-context: c",
    "",
  ].join("\n");
}

/** 5,000 levels of arrays: JSON and YAML both. */
export const DEEP = `${"[".repeat(5000)}${"]".repeat(5000)}\n`;

/** A file that never ends. */
export const ENDLESS_FILE = "/dev/zero";

/** The same nesting in an export-shaped file (plan --verify -f): past the format check, into the canonical form. */
export const DEEP_EXPORT = `{"format":"kubectl-ptah/plan-export","formatVersion":1,"extra":${DEEP.trim()}}\n`;
