// Reading an answer of the API server (kube/http.ts): its body as it arrives, a watch's lines,
// and its Warning headers' text. Types only from node:http: nothing here opens a connection.
import type http from "node:http";
import { ReadError } from "../errors.ts";

/**
 * The most of one answer kept whole: 64 MiB. A LIST is read page by page into a sink (kube/list-page.ts);
 * what is kept whole is one object (etcd stores at most 1.5 MiB), discovery, or a small list, so an
 * answer past this is no answer the API server sends, and holding it would take memory without end.
 */
export const MAX_KEPT_BODY_BYTES = 64 * 1024 * 1024;

/**
 * A response's body as it arrives: kept, or handed to `sink` (kept too when the -v log prints
 * bodies, `alsoKeep`). A sink that throws stops the reading: `failed` gets its error.
 */
export function collect(
  res: http.IncomingMessage,
  sink: ((chunk: Buffer) => void) | undefined,
  alsoKeep: boolean,
  failed: (err: unknown) => void,
  maxKept = MAX_KEPT_BODY_BYTES,
): Buffer[] {
  const parts: Buffer[] = [];
  let stopped = false;
  let kept = 0;
  res.on("data", (d: Buffer) => {
    if (stopped) return;
    if (!sink || alsoKeep) {
      kept += d.length;
      if (kept > maxKept) {
        stopped = true;
        failed(new ReadError(`the server's answer is larger than ${maxKept / 1024 / 1024} MiB, more than the plugin reads`));
        return;
      }
      parts.push(d);
    }
    try {
      sink?.(d);
    } catch (err) {
      stopped = true;
      failed(err);
    }
  });
  return parts;
}

/**
 * The longest watch line read: 4 MiB. A line is one event carrying one object, and etcd stores
 * an object in at most 1.5 MiB (its default request limit, --max-request-bytes); the event's
 * envelope and JSON's escapes keep such a line well under twice that. A longer line is no event
 * the API server sends, and holding it would take memory without end.
 */
export const MAX_WATCH_LINE_BYTES = 4 * 1024 * 1024;

/** A watch line longer than MAX_WATCH_LINE_BYTES: the reading stops there and the line is dropped. */
export class LongLine extends Error {}

/**
 * A watch's body, one JSON event per line, split on the bytes (a newline byte is never inside a
 * UTF-8 character, and a character cut between chunks is decoded whole with its line). A line
 * longer than `maxLine` bytes stops the reading with a LongLine; a handler that throws stops it
 * too: `failed` gets the error, once.
 */
export function eachLine(res: http.IncomingMessage, onLine: (line: string) => void, failed: (err: unknown) => void, maxLine = MAX_WATCH_LINE_BYTES): void {
  let parts: Buffer[] = [];
  let held = 0;
  let stopped = false;
  const stop = (err: unknown): void => {
    stopped = true;
    parts = [];
    failed(err);
  };
  res.on("data", (chunk: Buffer) => {
    if (stopped) return;
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf(0x0a, start)) >= 0) {
      if (held + nl - start > maxLine) return stop(new LongLine());
      parts.push(chunk.subarray(start, nl));
      const line = (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString("utf8").trim();
      parts = [];
      held = 0;
      start = nl + 1;
      if (!line) continue;
      try {
        onLine(line);
      } catch (err) {
        return stop(err);
      }
    }
    if (held + chunk.length - start > maxLine) return stop(new LongLine());
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      held += chunk.length - start;
    }
  });
}

/** The text of a Warning header (`299 - "text"`, RFC 7234), or the header as it is. */
export function warningText(header: string): string {
  const m = /^\d{3} \S+ "((?:[^"\\]|\\.)*)"/u.exec(header);
  return m ? m[1]!.replace(/\\(.)/gu, "$1") : header;
}
