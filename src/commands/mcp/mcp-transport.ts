// MCP's stdio transport over the shell's own streams: JSON-RPC messages, one a line, read from
// the context's input and written through its emit (the shell's ordered writer on stdout), every
// control character inside a string escaped. The
// SDK's own stdio transport takes process.stdin and process.stdout, which no command touches
// (the shell owns the process). A line is bounded (MAX_LINE_BYTES): a longer one is never held
// whole; it is answered with a JSON-RPC error under its id (read from its first or last bytes, where
// a client writes it), so the client is not left waiting, and the session goes on.
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { escapeJsonText } from "../../render/sanitize.ts";

/** A request of this server's tools is a few hundred bytes; a MiB is far more than any needs. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** JSON-RPC's code for a message that is not a valid request. */
export const INVALID_REQUEST = -32600;

/** How many of a long line's first and last bytes are kept, to find its id. */
const EDGE = 256;

/** A JSON-RPC id: an integer or a string. */
const ID = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
/** `{"jsonrpc":"2.0","id":…` or `{"id":…` at the start; `,"id":…}` at the end (the SDK's clients write it last). */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`, "u");
const ID_LAST = new RegExp(String.raw`,\s*"id"\s*:\s*${ID}\s*\}\s*$`, "u");

/** The id of a line of which only the first and last bytes are known; undefined when neither says. */
export function idOfLongLine(head: string, tail: string): string | number | undefined {
  const found = ID_FIRST.exec(head)?.[1] ?? ID_LAST.exec(tail)?.[1];
  return found === undefined ? undefined : (JSON.parse(found) as string | number);
}

const lastBytes = (b: Buffer): Buffer => Buffer.from(b.subarray(Math.max(0, b.length - EDGE)));

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The line read so far, while within the bound. */
  private parts: Buffer[] = [];
  private size = 0;
  /** A line that went over the bound: its first and last bytes and its length so far; the rest is dropped. */
  private over: { head: Buffer; tail: Buffer; bytes: number } | undefined;
  private closed = false;
  /** Resolves when the input ended or the transport was closed. */
  readonly done: Promise<void>;
  private finish: () => void = () => {};

  private readonly input: AsyncIterable<Uint8Array>;
  private readonly write: (text: string) => void;
  private readonly log: (line: string) => void;

  constructor(input: AsyncIterable<Uint8Array>, write: (text: string) => void, log: (line: string) => void) {
    this.input = input;
    this.write = write;
    this.log = log;
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  async start(): Promise<void> {
    void this.read();
  }

  private async read(): Promise<void> {
    try {
      for await (const chunk of this.input) {
        if (this.closed) break;
        this.take(Buffer.from(chunk));
      }
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
    await this.close();
  }

  /** Splits a chunk into lines: each whole line is handed on, or refused when it went over the bound. */
  private take(chunk: Buffer): void {
    let rest = chunk;
    for (;;) {
      const nl = rest.indexOf(0x0a);
      this.add(nl < 0 ? rest : rest.subarray(0, nl));
      if (nl < 0) return;
      this.endLine();
      rest = rest.subarray(nl + 1);
    }
  }

  private add(part: Buffer): void {
    if (part.length === 0) return;
    if (this.over) {
      this.over.bytes += part.length;
      this.over.tail = lastBytes(Buffer.concat([this.over.tail, part]));
      return;
    }
    if (this.size + part.length <= MAX_LINE_BYTES) {
      this.parts.push(part);
      this.size += part.length;
      return;
    }
    const line = Buffer.concat([...this.parts, part]);
    this.over = { head: Buffer.from(line.subarray(0, EDGE)), tail: lastBytes(line), bytes: line.length };
    this.parts = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.over) {
      const { head, tail, bytes } = this.over;
      this.over = undefined;
      this.refuseLong(head.toString("utf8"), tail.toString("utf8"), bytes);
      return;
    }
    const line = Buffer.concat(this.parts, this.size).toString("utf8").replace(/\r$/u, "");
    this.parts = [];
    this.size = 0;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (err) {
      // Not JSON-RPC: said on stderr (the protocol has no id to answer it with).
      this.log(`mcp: a line that is not a JSON-RPC message was ignored (${err instanceof SyntaxError ? "not JSON" : "not a message"})`);
      return;
    }
    this.onmessage?.(message);
  }

  /** A message over the bound: an error under its id, so the client stops waiting; without one, a note on stderr only. */
  private refuseLong(head: string, tail: string, bytes: number): void {
    const id = idOfLongLine(head, tail);
    const why = `a message of ${bytes} bytes is over this server's bound of ${MAX_LINE_BYTES} bytes for one message`;
    this.log(`mcp: ${why}; ${id === undefined ? "it names no id to answer, and was dropped" : "it was answered with an error"}`);
    if (id !== undefined) void this.send({ jsonrpc: "2.0", id, error: { code: INVALID_REQUEST, message: why } });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // DEL, C1, bidi controls and line separators escaped as \uXXXX (as every -o json is): the
    // same message, with no raw control character on the wire.
    if (!this.closed) this.write(escapeJsonText(serializeMessage(message)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.parts = [];
    this.over = undefined;
    this.onclose?.();
    this.finish();
  }
}
