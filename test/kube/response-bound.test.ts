// A served answer kept whole is bounded (src/kube/response.ts's collect): past the bound the reading
// stops with one error and nothing more is held; a page handed to a sink is not counted (a LIST is
// read page by page, kube/list-page.ts), unless the -v log keeps it too.
import { EventEmitter } from "node:events";
import type http from "node:http";
import { describe, expect, it } from "vitest";
import { ReadError } from "../../src/errors.ts";
import { collect, MAX_KEPT_BODY_BYTES } from "../../src/kube/response.ts";

function served(chunks: number, size: number, sink?: (c: Buffer) => void, alsoKeep = false, max = 1000) {
  const res = new EventEmitter();
  const errors: unknown[] = [];
  const parts = collect(res as http.IncomingMessage, sink, alsoKeep, (e) => errors.push(e), max);
  for (let i = 0; i < chunks; i++) res.emit("data", Buffer.alloc(size, 0x61));
  return { kept: parts.reduce((n, p) => n + p.length, 0), errors };
}

describe("an answer kept whole is bounded", () => {
  it("keeps an answer up to the bound", () => {
    expect(served(10, 100)).toEqual({ kept: 1000, errors: [] });
  });

  it("stops past the bound with one error, holding no more", () => {
    const r = served(50, 100);
    expect(r.kept).toBe(1000);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toBeInstanceOf(ReadError);
  });

  it("does not count what goes to a sink, but does when the log keeps it too", () => {
    expect(served(50, 100, () => {})).toEqual({ kept: 0, errors: [] });
    expect(served(50, 100, () => {}, true).errors).toHaveLength(1);
  });

  it("is 64 MiB in the plugin", () => {
    expect(MAX_KEPT_BODY_BYTES).toBe(64 * 1024 * 1024);
  });
});
