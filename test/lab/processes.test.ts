// lab/processes.ts's alive(pid, command): a process we just spawned is alive while it is still
// inside execve (its /proc cmdline reads empty for a moment then), and a live process running
// some other program is not ours (the pid-reuse guard). The first was a CI failure: the fleet
// lab's PostgreSQL reported "exited before it was ready" on its first check after spawn.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { alive } from "../../lab/processes.ts";

const linux = process.platform === "linux";

describe.skipIf(!linux)("lab processes: alive", () => {
  it("holds for a program from the moment spawn returns, through a wrapper's exec", async () => {
    const misses: number[] = [];
    for (let i = 0; i < 100; i++) {
      // env(1) execs sleep as setpriv does for PostgreSQL: two execs, each a window.
      const child = spawn("env", ["sleep", "0.3"], { stdio: "ignore", detached: true });
      const exited = new Promise((resolve) => child.on("exit", resolve));
      const pid = child.pid as number;
      const start = Date.now();
      while (Date.now() - start < 20) if (!alive(pid, "sleep")) misses.push(i);
      child.kill("SIGKILL");
      await exited;
    }
    expect([...new Set(misses)]).toEqual([]);
  });

  it("does not hold for a live process running another program, nor for one that has ended", async () => {
    const child = spawn("sleep", ["5"], { stdio: "ignore" });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    const pid = child.pid as number;
    await new Promise((r) => setTimeout(r, 100));
    expect(alive(pid, "sleep")).toBe(true);
    expect(alive(pid, "postgres")).toBe(false);
    child.kill("SIGKILL");
    await exited;
    expect(alive(pid, "sleep")).toBe(false);
  });
});
