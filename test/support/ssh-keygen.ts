// OpenSSH's ssh-keygen as the oracle of the export's signatures: keys made by it, signatures made
// and checked by it (-Y sign, -Y verify), allowed signers files written from its public keys.
// Every function takes the tool's path from needTool(ctx, "ssh-keygen"), so a test without it is
// named as not run (or fails under CI), never passed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const NAMESPACE = "kubectl-ptah-plan";

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(tool: string, args: readonly string[], stdinFile?: string): Run {
  // The message goes in as a file descriptor, not through a pipe: ssh-keygen refuses a malformed
  // signature before it reads its standard input, and a pipe it never read fails the write (EPIPE).
  const fd = stdinFile === undefined ? undefined : fs.openSync(stdinFile, "r");
  try {
    const r = spawnSync(tool, args, { stdio: [fd ?? "ignore", "pipe", "pipe"], encoding: "utf8" });
    if (r.error) throw r.error;
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export type KeyKind = "ed25519" | "ecdsa" | "ecdsa-384" | "rsa" | "dsa";

/** A new unencrypted key (or one with `passphrase`) in `dir`: its private key file's path. */
export function makeKey(tool: string, dir: string, name: string, kind: KeyKind = "ed25519", passphrase = ""): string {
  const file = path.join(dir, name);
  const type =
    kind === "ecdsa-384"
      ? ["-t", "ecdsa", "-b", "384"]
      : kind === "ecdsa"
        ? ["-t", "ecdsa", "-b", "256"]
        : kind === "rsa"
          ? ["-t", "rsa", "-b", "2048"]
          : kind === "dsa"
            ? ["-t", "dsa"]
            : ["-t", "ed25519"];
  const r = run(tool, ["-q", ...type, "-N", passphrase, "-C", `${name}@test`, "-f", file]);
  if (r.status !== 0) throw new Error(`ssh-keygen could not make a key: ${r.stderr}`);
  return file;
}

/** An allowed signers file naming each principal with its key's public half (and options, if any). */
export function writeAllowedSigners(dir: string, name: string, entries: readonly { principal: string; key: string; options?: string }[]): string {
  const file = path.join(dir, name);
  const lines = entries.map((e) => {
    const [type, b64] = fs.readFileSync(`${e.key}.pub`, "utf8").trim().split(/\s+/u);
    return [e.principal, ...(e.options ? [e.options] : []), type, b64].join(" ");
  });
  fs.writeFileSync(file, `# allowed to sign plan exports\n\n${lines.join("\n")}\n`);
  return file;
}

/** `ssh-keygen -Y sign`: writes FILE.sig, which must not exist (ssh-keygen would ask before replacing it). */
export function sshSign(tool: string, key: string, file: string, namespace = NAMESPACE): Run {
  return run(tool, ["-Y", "sign", "-f", key, "-n", namespace, file]);
}

/** `ssh-keygen -Y verify` of `file`'s bytes against `sig` for `principal`. */
export function sshVerify(tool: string, allowed: string, principal: string, sig: string, file: string, namespace = NAMESPACE): Run {
  return run(tool, ["-Y", "verify", "-f", allowed, "-I", principal, "-n", namespace, "-s", sig], file);
}

/** The key's fingerprint as ssh-keygen prints it (SHA256:…). */
export function sshFingerprint(tool: string, key: string): string {
  const r = run(tool, ["-l", "-E", "sha256", "-f", `${key}.pub`]);
  const fp = /SHA256:\S+/u.exec(r.stdout)?.[0];
  if (!fp) throw new Error(`ssh-keygen printed no fingerprint: ${r.stdout}${r.stderr}`);
  return fp;
}
