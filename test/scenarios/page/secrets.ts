// The lab's secret values, and taking them out of recorded text. A replay page names credentials
// (KUBECONFIG, a user's context), never their values: the runner already refuses a step that reads
// an undeclared variable, and here every private key the lab generated (its client, apiserver,
// service-account and simulator keys), in every form a command could print it — the PEM, its
// base64 as kubeconfig's client-key-data holds it, or any run of 32 or more base64 characters
// from either — is replaced by `[redacted: NAME]` before a page is rendered.
import fs from "node:fs";
import path from "node:path";

export interface Secret {
  /** What it is, e.g. "lab-approver.key"; shown in place of the value. */
  name: string;
  /** Forms of the value to look for (each at least 16 characters). */
  forms: string[];
}

const BASE64_RUN = /[A-Za-z0-9+/]{32,}={0,2}/gu;

/** A key file's forms: its text, its PEM body on one line, its base64 (kubeconfig's *-data). */
export function secretOf(name: string, text: string): Secret {
  const body = text
    .split("\n")
    .filter((l) => l && !l.startsWith("-----"))
    .join("");
  return { name, forms: [text.trim(), body, Buffer.from(text).toString("base64")].filter((f) => f.length >= 16) };
}

/** Every private key under the lab folder's pki/ and sim-pki/, plus a PostgreSQL password if postgres.json has one. */
export function labSecrets(labDir: string): Secret[] {
  const out: Secret[] = [];
  for (const dir of ["pki", "sim-pki"]) {
    const full = path.join(labDir, dir);
    if (!fs.existsSync(full)) continue;
    for (const f of fs.readdirSync(full).sort()) {
      if (f.endsWith(".key")) out.push(secretOf(`${dir}/${f}`, fs.readFileSync(path.join(full, f), "utf8")));
    }
  }
  try {
    const pg = JSON.parse(fs.readFileSync(path.join(labDir, "postgres.json"), "utf8")) as { password?: unknown };
    if (typeof pg.password === "string" && pg.password.length >= 8) out.push({ name: "PostgreSQL password", forms: [pg.password] });
  } catch {
    /* no PostgreSQL in this lab */
  }
  return out;
}

/** The text with every secret form, and every base64 run found inside one, replaced by its name. */
export function redact(text: string, secrets: readonly Secret[]): { text: string; count: number } {
  let count = 0;
  let out = text;
  for (const s of secrets) {
    for (const form of [...s.forms].sort((a, b) => b.length - a.length)) {
      if (!out.includes(form)) continue;
      const parts = out.split(form);
      count += parts.length - 1;
      out = parts.join(`[redacted: ${s.name}]`);
    }
  }
  out = out.replace(BASE64_RUN, (run) => {
    const s = secrets.find((x) => x.forms.some((f) => f.includes(run.replace(/=+$/u, ""))));
    if (!s) return run;
    count += 1;
    return `[redacted: ${s.name}]`;
  });
  return { text: out, count };
}
