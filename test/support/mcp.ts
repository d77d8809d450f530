// An MCP session with the real shell in process: `runCli(["mcp", …])` (through runCliWith, the one
// harness) with its standard input fed by the SDK's real Client, and its streamed stdout read back
// as the client's messages, line by line. The e2e tier does the same over real stdio with the
// built plugin (test/e2e/mcp.e2e.test.ts).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ClusterReader } from "../../src/kube/types.ts";
import { runCliWith, type CliOptions, type CliRun, type REAL_CONNECTION } from "./cli.ts";

/** An async iterable of byte chunks that a test pushes into and ends. */
export class InputQueue implements AsyncIterable<Uint8Array> {
  private readonly chunks: Uint8Array[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  push(text: string | Uint8Array): void {
    this.chunks.push(typeof text === "string" ? Buffer.from(text, "utf8") : text);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) {
        yield chunk;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

/** The client's side of the pipe: its messages become the server's input lines. */
class PipeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private pending = "";
  readonly input = new InputQueue();

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    this.input.push(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.input.end();
    this.onclose?.();
  }

  /** The server's stdout, as it streams. */
  take(text: string): void {
    this.pending += text;
    for (let nl = this.pending.indexOf("\n"); nl >= 0; nl = this.pending.indexOf("\n")) {
      const line = this.pending.slice(0, nl);
      this.pending = this.pending.slice(nl + 1);
      this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
    }
  }
}

export interface McpSession {
  readonly client: Client;
  /** The server's end: what runCli returned once the client closed. */
  readonly finished: Promise<CliRun>;
  /** The raw input, for messages no client would send. */
  readonly input: InputQueue;
  /** Everything the server wrote to stdout so far. */
  readonly stdout: () => string;
}

/** Starts `kubectl ptah mcp ARGS…` in process over `reader` and connects the SDK's client to it. */
export async function mcpSession(reader: ClusterReader | typeof REAL_CONNECTION | undefined, args: readonly string[] = [], options: CliOptions = {}): Promise<McpSession> {
  const pipe = new PipeTransport();
  let out = "";
  const finished = runCliWith(["mcp", ...args], reader, {
    ...options,
    input: pipe.input,
    onEmit: (text) => {
      out += text;
      pipe.take(text);
    },
  });
  const client = new Client({ name: "kubectl-ptah-tests", version: "1.0.0" });
  await client.connect(pipe);
  return { client, finished, input: pipe.input, stdout: () => out };
}
