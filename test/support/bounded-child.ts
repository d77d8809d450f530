// The entry of a bounded child (test/support/bounded-run.ts): one command line through the one
// harness, runCliWith over the real connection code, with the process's own standard input (mcp)
// and environment; what it printed goes to its stdout and stderr, its status is the exit status.
import { REAL_CONNECTION, runCliWith } from "./cli.ts";

const argv = JSON.parse(process.argv[2] ?? "[]") as string[];
const r = await runCliWith(argv, REAL_CONNECTION, {
  env: process.env,
  input: process.stdin,
  onEmit: (text) => process.stdout.write(text),
});
process.stdout.write(r.stdout);
process.stderr.write(r.stderr);
process.exitCode = r.status;
