// One word for a POSIX shell: single-quoted, each single quote closed, escaped and reopened.
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}
