// Reading an answer of the API server (kube/http.ts): its body as it arrives, a watch's lines,
// and its Warning headers' text. Types only from node:http: nothing here opens a connection.
import type http from "node:http";

/**
 * A response's body as it arrives: kept, or handed to `sink` (kept too when the -v log prints
 * bodies, `alsoKeep`). A sink that throws stops the reading: `failed` gets its error.
 */
export function collect(res: http.IncomingMessage, sink: ((chunk: Buffer) => void) | undefined, alsoKeep: boolean, failed: (err: unknown) => void): Buffer[] {
  const parts: Buffer[] = [];
  let stopped = false;
  res.on("data", (d: Buffer) => {
    if (stopped) return;
    if (!sink || alsoKeep) parts.push(d);
    try {
      sink?.(d);
    } catch (err) {
      stopped = true;
      failed(err);
    }
  });
  return parts;
}

/** A watch's body, one JSON event per line; a handler that throws stops the reading: `failed` gets its error. */
export function eachLine(res: http.IncomingMessage, onLine: (line: string) => void, failed: (err: unknown) => void): void {
  let buffered = "";
  res.setEncoding("utf8");
  res.on("data", (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (!line) continue;
      try {
        onLine(line);
      } catch (err) {
        failed(err);
        return;
      }
    }
  });
}

/** The text of a Warning header (`299 - "text"`, RFC 7234), or the header as it is. */
export function warningText(header: string): string {
  const m = /^\d{3} \S+ "((?:[^"\\]|\\.)*)"/u.exec(header);
  return m ? m[1]!.replace(/\\(.)/gu, "$1") : header;
}
