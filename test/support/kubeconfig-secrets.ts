// The credentials a kubeconfig file holds, to show none of them is printed: every secret-looking
// value (client key and certificate, CA, token, password) as written, and each base64 value's
// decoded lines long enough to be telling.
import fs from "node:fs";

export function credentialsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const values = [...text.matchAll(/^\s*(client-key-data|client-certificate-data|certificate-authority-data|token|password):\s*(\S+)\s*$/gmu)].map((m) => m[2]!);
  const decoded = values.flatMap((v) => Buffer.from(v, "base64").toString("utf8").split("\n")).filter((l) => l.length >= 16 && !l.startsWith("-----"));
  return [...values, ...decoded];
}
