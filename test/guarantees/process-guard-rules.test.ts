// The process guard's rules one by one (src/cli/process-guard.ts), installed in this test's process
// as main.ts installs it. Generated over the modules' own members, not a list of calls: every
// function of node:fs, fs/promises and child_process is either a read left exactly as it was (the
// test's own list of the reads the plugin makes) or refused with the one line its kind prints; the
// open flags that only read pass and every write flag is refused; what else the guard replaces
// (cluster's fork, the Worker, dlopen, the bindings, kill of another process) is refused and the
// rest of those modules untouched. The capabilities (the code cache's folder and log, the new file
// of --export, stdout and stderr, doctor's kubectl) do exactly their one thing. A second install
// changes nothing. Everything this file writes outside the capabilities is made before the guard.
import childProcess from "node:child_process";
import cluster from "node:cluster";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import workers from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeCacheFolder, codeCacheLog, createNewFile, installProcessGuard, runKubectlVersion, startCredentialPlugin, writeStdio } from "../../src/cli/process-guard.ts";
import { ReadOnlyError, sanitize } from "../../src/errors.ts";

const WRITE = "the plugin only reads (it writes only to stdout, stderr, its code cache and the new file plan --export or --sign names)";
const CHILD = "the plugin only reads (the programs it runs are the kubeconfig's exec credential plugin and doctor's kubectl version)";

// The reads the plugin, Node and its dependencies make (the test's own list, from what they call).
const FS_READS = [
  ...["access", "exists", "stat", "lstat", "fstat", "statfs", "readFile", "read", "readv", "readdir", "opendir", "realpath", "readlink", "close"].flatMap((n) => [n, `${n}Sync`]),
  ...["createReadStream", "ReadStream", "FileReadStream", "Stats", "Dirent", "Dir"],
];
const FS_LIMITED = ["open", "openSync", "writeSync", "promises"];
const PROMISES_READS = ["access", "stat", "lstat", "statfs", "readFile", "readdir", "opendir", "realpath", "readlink"];

// Taken before the guard: what the test itself does after it (clean-up, a person's chmod).
const { unlinkSync, rmdirSync, chmodSync, mkdirSync } = fs;
const remove = (p: string): void => {
  if (!fs.lstatSync(p).isDirectory()) return unlinkSync(p);
  for (const name of fs.readdirSync(p)) remove(path.join(p, name));
  rmdirSync(p);
};
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-guard-rules-"));
const FILE = path.join(DIR, "a-file");
fs.writeFileSync(FILE, "x");
const BIN = path.join(DIR, "bin");
fs.mkdirSync(BIN);
// doctor's kubectl: prints its arguments; "slow" sleeps past any timeout the test gives.
fs.writeFileSync(path.join(BIN, "kubectl"), `#!/bin/sh\nif [ -n "$SLOW" ]; then sleep 5; fi\necho "$@"\n`, { mode: 0o755 });
fs.writeFileSync(path.join(BIN, "credential"), `#!/bin/sh\necho "$@" "$CRED"\n`, { mode: 0o755 });

type Descriptors = Map<string, PropertyDescriptor>;
const descriptors = (m: object): Descriptors => new Map(Object.getOwnPropertyNames(m).map((k) => [k, Object.getOwnPropertyDescriptor(m, k)!]));
const functions = (d: Descriptors): string[] => [...d].filter(([, x]) => !("value" in x) || typeof x.value === "function").map(([k]) => k);
const before = { fs: descriptors(fs), fsp: descriptors(fsp), child: descriptors(childProcess), cluster: descriptors(cluster), workers: descriptors(workers) };
/** A member as it is now, for identity (not to call). */
const member = (o: object, key: string): unknown => Reflect.get(o, key);
const unguarded = { getBuiltinModule: member(process, "getBuiltinModule"), kill: member(process, "kill") };

beforeAll(() => installProcessGuard());
afterAll(() => remove(DIR));

/** What `call` throws: a ReadOnlyError's message, or a failure naming what happened instead. */
function refusal(call: () => unknown): string {
  try {
    call();
  } catch (err) {
    return err instanceof ReadOnlyError ? err.message : `not a refusal: ${String(err)}`;
  }
  return "not refused";
}

describe("node:fs under the guard", () => {
  it("leaves each read exactly as it was", () => {
    for (const name of FS_READS) expect(Object.getOwnPropertyDescriptor(fs, name), name).toEqual(before.fs.get(name));
    expect(fs.readFileSync(FILE, "utf8")).toBe("x");
  });

  it("refuses every other function (accessors included) with the write line naming its first argument, keeping the property's flags", () => {
    const refused = functions(before.fs).filter((k) => !FS_READS.includes(k) && !FS_LIMITED.includes(k));
    expect(refused).toContain("writeFileSync");
    expect(refused).toContain("WriteStream");
    for (const name of refused) {
      const target = path.join(DIR, `by-${name}`);
      expect(
        refusal(() => (fs as unknown as Record<string, (p: string) => unknown>)[name]!(target)),
        name,
      ).toBe(`refused to write ${target}: ${WRITE}`);
      const was = before.fs.get(name)!;
      expect(Object.getOwnPropertyDescriptor(fs, name), name).toMatchObject({ writable: true, configurable: true, enumerable: was.enumerable });
      expect(fs.existsSync(target), name).toBe(false);
    }
  });

  it("leaves what is not a function as it was", () => {
    for (const [name, d] of before.fs) if ("value" in d && typeof d.value !== "function") expect(Object.getOwnPropertyDescriptor(fs, name), name).toEqual(d);
  });

  it("names a descriptor, a URL and a path with control characters as a person reads them", () => {
    expect(refusal(() => fs.fsyncSync(5))).toBe(`refused to write file descriptor 5: ${WRITE}`);
    const url = new URL(`file://${DIR}/a%20b`);
    expect(refusal(() => fs.writeFileSync(url, "x"))).toBe(`refused to write ${url.href}: ${WRITE}`);
    const odd = path.join(DIR, "a\u001b[31mb");
    expect(refusal(() => fs.writeFileSync(odd, "x"))).toBe(`refused to write ${sanitize(odd)}: ${WRITE}`);
    expect(sanitize(odd)).not.toBe(odd);
  });

  const READ_FLAGS: Array<[string, unknown]> = [
    ["no flags", undefined],
    ["null", null],
    ["r", "r"],
    ["rs", "rs"],
    ["sr", "sr"],
    ["O_RDONLY", fs.constants.O_RDONLY],
    ["O_RDONLY | O_NOFOLLOW", fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW],
  ];
  const WRITE_FLAGS: Array<[string, unknown]> = [
    ...["w", "wx", "w+", "a", "ax", "a+", "as", "r+", "rs+"].map((f): [string, unknown] => [f, f]),
    ...(["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"] as const).map((f): [string, unknown] => [f, fs.constants[f]]),
    ["O_RDONLY | O_CREAT", fs.constants.O_RDONLY | fs.constants.O_CREAT],
  ];

  it.each(READ_FLAGS)("opens to read with %s (openSync, open and fs/promises' open)", async (_, flags) => {
    fs.closeSync(fs.openSync(FILE, flags as string));
    await new Promise<void>((resolve, reject) => fs.open(FILE, flags as string, (err, fd) => (err ? reject(err) : fs.close(fd, () => resolve()))));
    await (await fsp.open(FILE, flags as string)).close();
  });

  it.each(WRITE_FLAGS)("refuses to open with %s (openSync, open and fs/promises' open)", (_, flags) => {
    const line = `refused to write ${FILE}: ${WRITE}`;
    expect(refusal(() => fs.openSync(FILE, flags as string))).toBe(line);
    expect(refusal(() => fs.open(FILE, flags as string, () => undefined))).toBe(line);
    expect(refusal(() => fsp.open(FILE, flags as string))).toBe(line);
    expect(fs.readFileSync(FILE, "utf8")).toBe("x");
  });

  it("writes with writeSync to stdout and stderr only", () => {
    expect(fs.writeSync(1, Buffer.alloc(0))).toBe(0);
    expect(fs.writeSync(2, Buffer.alloc(0))).toBe(0);
    for (const fd of [0, 3, 7]) expect(refusal(() => fs.writeSync(fd, "x"))).toBe(`refused to write file descriptor ${fd}: ${WRITE}`);
    expect(writeStdio(1, Buffer.alloc(0), 0, 0)).toBe(0);
    expect(writeStdio(2, Buffer.alloc(0), 0, 0)).toBe(0);
    for (const fd of [0, 3, 7]) expect(refusal(() => writeStdio(fd, Buffer.from("x"), 0, 1))).toBe(`refused to write file descriptor ${fd}: ${WRITE}`);
  });
});

describe("fs/promises under the guard", () => {
  it("fs.promises keeps its property's flags", () => {
    const was = before.fs.get("promises")!;
    expect(Object.getOwnPropertyDescriptor(fs, "promises")).toMatchObject({ enumerable: was.enumerable, configurable: was.configurable });
    expect(was).toMatchObject({ enumerable: true, configurable: true });
  });

  it("leaves each read as it was and refuses every other function, as fs.promises too", async () => {
    for (const name of PROMISES_READS) expect(Object.getOwnPropertyDescriptor(fsp, name), name).toEqual(before.fsp.get(name));
    expect(await fs.promises.readFile(FILE, "utf8")).toBe("x");
    const refused = functions(before.fsp).filter((k) => !PROMISES_READS.includes(k) && k !== "open" && k !== "constants" && k !== "default");
    expect(refused).toContain("writeFile");
    for (const name of refused) {
      const target = path.join(DIR, `by-promises-${name}`);
      expect(
        refusal(() => (fsp as unknown as Record<string, (p: string) => unknown>)[name]!(target)),
        name,
      ).toBe(`refused to write ${target}: ${WRITE}`);
      expect(
        refusal(() => (fs.promises as unknown as Record<string, (p: string) => unknown>)[name]!(target)),
        name,
      ).toBe(`refused to write ${target}: ${WRITE}`);
    }
  });
});

describe("child processes, workers, addons, bindings and signals", () => {
  it("refuses every function of node:child_process, through the module and as Node hands it out", () => {
    const names = functions(before.child);
    expect(names).toEqual(expect.arrayContaining(["spawn", "execFile", "exec", "fork", "spawnSync", "execSync", "execFileSync"]));
    const handed = process.getBuiltinModule("node:child_process") as unknown as Record<string, (c: string) => unknown>;
    for (const name of names) {
      expect(
        refusal(() => (childProcess as unknown as Record<string, (c: string) => unknown>)[name]!("true")),
        name,
      ).toBe(`refused to start a child process: ${CHILD}`);
      expect(
        refusal(() => handed[name]!("true")),
        name,
      ).toBe(`refused to start a child process: ${CHILD}`);
    }
  });

  it("refuses cluster's fork and nothing else of it", () => {
    expect(refusal(() => cluster.fork())).toBe(`refused to start a child process: ${CHILD}`);
    for (const [name, d] of before.cluster) if (name !== "fork") expect(Object.getOwnPropertyDescriptor(cluster, name), name).toEqual(d);
  });

  it("refuses the Worker and nothing else of worker_threads", () => {
    expect(refusal(() => new workers.Worker("0", { eval: true }))).toBe("refused to start a worker: the plugin only reads (it starts no worker)");
    for (const [name, d] of before.workers) if (name !== "Worker") expect(Object.getOwnPropertyDescriptor(workers, name), name).toEqual(d);
  });

  it("refuses native addons and Node's internal bindings", () => {
    expect(refusal(() => process.dlopen({ exports: {} } as NodeJS.Module, FILE))).toBe("refused to load a native addon: the plugin only reads (it loads no native code)");
    const proc = process as unknown as Record<string, (name: string) => unknown>;
    for (const name of ["binding", "_linkedBinding"])
      expect(
        refusal(() => proc[name]!("fs")),
        name,
      ).toBe("refused to reach Node's internal bindings: the plugin only reads (Node's internal bindings reach around this guard)");
  });

  it("signals this process only", () => {
    expect(refusal(() => process.kill(1, 0))).toBe("refused to signal process 1: the plugin only reads (it signals no other process)");
    expect(process.kill(process.pid, 0)).toBe(true);
  });

  it("hands out the built-ins it does not watch as they are", () => {
    expect(process.getBuiltinModule("node:path")).toBe(path);
    expect(process.getBuiltinModule("node:fs")).toBe(fs);
  });

  it("a second install changes nothing", () => {
    const members = (): unknown[] => [member(process, "getBuiltinModule"), member(process, "kill"), member(process, "dlopen"), member(fs, "writeFileSync")];
    const now = members();
    expect(now[0]).not.toBe(unguarded.getBuiltinModule);
    expect(now[1]).not.toBe(unguarded.kill);
    installProcessGuard();
    const after = members();
    for (const [i, m] of now.entries()) expect(after[i], String(i)).toBe(m);
  });
});

describe("the capabilities", () => {
  const mode = (p: string): number => fs.statSync(p).mode & 0o777;

  it("the code cache's folder: made 0700 on the first write, entries 0600 written whole and renamed into place", () => {
    const dir = path.join(DIR, "cache", "code");
    const folder = codeCacheFolder(dir);
    expect(fs.existsSync(dir)).toBe(false);
    const big = Buffer.alloc(3 * 1024 * 1024 + 7, 7);
    folder.replace("a.v8", big);
    expect(mode(dir)).toBe(0o700);
    expect(fs.readFileSync(path.join(dir, "a.v8")).equals(big)).toBe(true);
    expect(mode(path.join(dir, "a.v8"))).toBe(0o600);
    folder.replace("a.v8", Buffer.from("second"));
    folder.replace("b.v8", Buffer.from("b"));
    expect(fs.readFileSync(path.join(dir, "a.v8"), "utf8")).toBe("second");
    expect(fs.readdirSync(dir).sort()).toEqual(["a.v8", "b.v8"]);
    folder.remove("b.v8");
    folder.remove("never-there.v8");
    expect(fs.readdirSync(dir)).toEqual(["a.v8"]);
  });

  it("the code cache's folder: a made folder is not made again (its mode left as the person set it)", () => {
    const dir = path.join(DIR, "cache-made");
    const folder = codeCacheFolder(dir);
    folder.replace("a.v8", Buffer.from("a"));
    chmodSync(dir, 0o750);
    folder.replace("b.v8", Buffer.from("b"));
    expect(mode(dir)).toBe(0o750);
  });

  it.each(["../x.v8", "sub/x.v8", ".", "..", ""])("the code cache's folder refuses %j: files directly inside it only", (name) => {
    const dir = path.join(DIR, "cache-refuses");
    expect(refusal(() => codeCacheFolder(dir).replace(name, Buffer.from("x")))).toMatch(/^refused to write .+: the plugin only reads \(it writes only/u);
    expect(refusal(() => codeCacheFolder(dir).remove(name))).toMatch(/^refused to write .+: the plugin only reads \(it writes only/u);
  });

  it("the code cache's folder: a removal that fails for another reason than absence says so", () => {
    const dir = path.join(DIR, "cache-dir-entry");
    const folder = codeCacheFolder(dir);
    folder.replace("a.v8", Buffer.from("a"));
    mkdirSync(path.join(dir, "d.v8"));
    expect(() => folder.remove("d.v8")).toThrow(expect.objectContaining({ code: expect.stringMatching(/^(EISDIR|EPERM)$/u) }));
  });

  it("the code cache's folder is made once a run: one removed meanwhile is not made again", () => {
    const dir = path.join(DIR, "cache-removed");
    const folder = codeCacheFolder(dir);
    folder.replace("a.v8", Buffer.from("a"));
    remove(dir);
    expect(() => folder.replace("b.v8", Buffer.from("b"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("every write closes what it opened", () => {
    const open = (): number => fs.readdirSync("/proc/self/fd").length;
    const count = open();
    const folder = codeCacheFolder(path.join(DIR, "cache-fds"));
    const log = codeCacheLog(path.join(DIR, "fds.log"));
    for (let i = 0; i < 5; i++) {
      folder.replace(`${i}.v8`, Buffer.from("x"));
      log("line\n");
      createNewFile(path.join(DIR, `fds-${i}.json`), "{}");
    }
    expect(open()).toBe(count);
  });

  it("the code cache's log appends each line, UTF-8", () => {
    const file = path.join(DIR, "cache.log");
    const append = codeCacheLog(file);
    append("hit é\n");
    append("miss ü\n");
    expect(fs.readFileSync(file, "utf8")).toBe("hit é\nmiss ü\n");
  });

  it("--export's one new file: written whole, and never over an existing one", () => {
    const file = path.join(DIR, "export.json");
    const text = `${"é".repeat(600_000)}\n`;
    createNewFile(file, text);
    expect(fs.readFileSync(file, "utf8")).toBe(text);
    expect(mode(file) & 0o600).toBe(0o600);
    expect(() => createNewFile(file, "again")).toThrow(expect.objectContaining({ code: "EEXIST" }));
    expect(fs.readFileSync(file, "utf8")).toBe(text);
  });

  it("doctor's kubectl: exactly `kubectl version --client -o json`, as text, within its timeout", async () => {
    const env = { PATH: `${BIN}:${process.env.PATH}` };
    const ran = await new Promise<{ err: unknown; stdout: unknown }>((resolve) => runKubectlVersion(env, 10_000, (err, stdout) => resolve({ err, stdout })));
    expect(ran).toEqual({ err: null, stdout: "version --client -o json\n" });
    const slow = await new Promise<{ err: unknown }>((resolve) => runKubectlVersion({ ...env, SLOW: "1" }, 200, (err) => resolve({ err })));
    expect(slow.err).toMatchObject({ killed: true });
  });

  it("the exec credential plugin: the command with its arguments and environment, its stdout read", async () => {
    const child = startCredentialPlugin(path.join(BIN, "credential"), ["a", "b c"], { PATH: process.env.PATH, CRED: "token" }, false);
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    await new Promise((resolve) => child.on("close", resolve));
    expect(out).toBe("a b c token\n");
  });
});
