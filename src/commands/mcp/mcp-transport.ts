// MCP's stdio transport over the shell's own streams: JSON-RPC messages, one a line, read from
// the context's input and written through its emit (the shell's ordered writer on stdout), every
// control character inside a string escaped. The
// SDK's own stdio transport takes process.stdin and process.stdout, which no command touches
// (the shell owns the process). A line is bounded (MAX_LINE_BYTES): a longer one is dropped with a
// note on stderr, and the session goes on.
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { escapeJsonText } from "../../render/sanitize.ts";

/** A request of this server's tools is a few hundred bytes; a MiB is far more than any needs. */
export const MAX_LINE_BYTES = 1024 * 1024;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_LINE_BYTES });
  private closed = false;
  /** Inside a line that went over the bound: its bytes are dropped up to its newline. */
  private skipping = false;
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

  /** Appends a chunk and hands on every whole line; a line past the bound is dropped up to its end. */
  private take(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) {
      if (this.skipping) {
        const end = rest.indexOf(0x0a);
        if (end < 0) return;
        this.skipping = false;
        rest = rest.subarray(end + 1);
        continue;
      }
      try {
        this.buffer.append(rest);
        rest = Buffer.alloc(0);
      } catch {
        // Over the bound: what was buffered is gone; skip to the end of the line it belongs to.
        this.log(`mcp: a message longer than ${MAX_LINE_BYTES} bytes was dropped`);
        this.skipping = true;
        continue;
      }
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (err) {
          // Not JSON-RPC: said on stderr (the protocol has no id to answer it with).
          this.log(`mcp: a line that is not a JSON-RPC message was ignored (${err instanceof SyntaxError ? "not JSON" : "not a message"})`);
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // DEL, C1, bidi controls and line separators escaped as \uXXXX (as every -o json is): the
    // same message, with no raw control character on the wire.
    if (!this.closed) this.write(escapeJsonText(serializeMessage(message)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
    this.finish();
  }
}
