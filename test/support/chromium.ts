// Headless Chromium (Debian's `chromium`) driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: JSON messages ending in NUL on file descriptors 3 and 4), so no
// WebSocket, no port and no npm dependency is needed (docs/decisions.md). One browser per test
// file; `page()` opens a tab attached in flat mode; console errors and uncaught exceptions are
// collected per tab.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable, Writable } from "node:stream";

/** The browser binary: $PTAH_CHROMIUM, else the first of chromium / chromium-browser on PATH. */
export function chromiumPath(): string | undefined {
  if (process.env.PTAH_CHROMIUM) return process.env.PTAH_CHROMIUM;
  for (const name of ["chromium", "chromium-browser"]) {
    const r = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
    if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
  }
  return undefined;
}

type Params = Record<string, unknown>;
interface Message {
  id?: number;
  method?: string;
  params?: Params;
  result?: Params;
  error?: { message: string };
  sessionId?: string;
}

export class Browser {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: Params) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Set<(m: Message) => void>();
  private buffer = "";
  private readonly child: ChildProcess;
  private readonly profile: string;

  private constructor(child: ChildProcess, profile: string) {
    this.child = child;
    this.profile = profile;
    const input = child.stdio[4] as Readable;
    input.setEncoding("utf8");
    input.on("data", (chunk: string) => {
      this.buffer += chunk;
      for (let end = this.buffer.indexOf("\0"); end >= 0; end = this.buffer.indexOf("\0")) {
        const m = JSON.parse(this.buffer.slice(0, end)) as Message;
        this.buffer = this.buffer.slice(end + 1);
        if (m.id !== undefined && this.pending.has(m.id)) {
          const p = this.pending.get(m.id)!;
          this.pending.delete(m.id);
          if (m.error) p.reject(new Error(m.error.message));
          else p.resolve(m.result ?? {});
        } else for (const l of this.listeners) l(m);
      }
    });
  }

  static launch(binary: string): Promise<Browser> {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-chromium-"));
    const args = [
      "--headless",
      "--remote-debugging-pipe",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-gpu",
      "--disable-extensions",
      "--disable-background-networking",
      "--disable-sync",
      "--hide-scrollbars",
      "--mute-audio",
      `--user-data-dir=${profile}`,
    ];
    // Chromium's sandbox refuses to start as root (CI runs as root); an unprivileged user keeps it.
    if (process.getuid?.() === 0) args.push("--no-sandbox");
    const child = spawn(binary, [...args, "about:blank"], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const browser = new Browser(child, profile);
    return new Promise((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`chromium exited (${String(code)}) before it answered: ${stderr.slice(-500)}`)));
      browser.send("Browser.getVersion").then(() => resolve(browser), reject);
    });
  }

  send(method: string, params: Params = {}, sessionId?: string): Promise<Params> {
    const id = this.nextId++;
    const out = this.child.stdio[3] as Writable;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      out.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  on(listener: (m: Message) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async page(): Promise<Page> {
    const { targetId } = (await this.send("Target.createTarget", { url: "about:blank" })) as { targetId: string };
    const { sessionId } = (await this.send("Target.attachToTarget", { targetId, flatten: true })) as { sessionId: string };
    const page = new Page(this, sessionId, targetId);
    await page.init();
    return page;
  }

  async close(): Promise<void> {
    const exited = new Promise((r) => this.child.once("exit", r));
    await this.send("Browser.close").catch(() => undefined);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
    fs.rmSync(this.profile, { recursive: true, force: true });
  }
}

export class Page {
  /** Console errors, uncaught exceptions and error log entries, as text. */
  readonly errors: string[] = [];
  readonly browser: Browser;
  readonly sessionId: string;
  readonly targetId: string;

  constructor(browser: Browser, sessionId: string, targetId: string) {
    this.browser = browser;
    this.sessionId = sessionId;
    this.targetId = targetId;
    browser.on((m) => {
      if (m.sessionId !== sessionId) return;
      const p = m.params ?? {};
      if (m.method === "Runtime.consoleAPICalled" && (p.type === "error" || p.type === "assert")) {
        this.errors.push(`console.${String(p.type)}: ${JSON.stringify((p.args as Array<{ value?: unknown; description?: string }>).map((a) => a.value ?? a.description))}`);
      }
      if (m.method === "Runtime.exceptionThrown")
        this.errors.push(
          `exception: ${JSON.stringify((p.exceptionDetails as { exception?: { description?: string }; text?: string }).exception?.description ?? p.exceptionDetails)}`,
        );
      if (m.method === "Log.entryAdded" && (p.entry as { level?: string }).level === "error") this.errors.push(`log: ${(p.entry as { text?: string }).text ?? ""}`);
    });
  }

  send(method: string, params: Params = {}): Promise<Params> {
    return this.browser.send(method, params, this.sessionId);
  }

  async init(): Promise<void> {
    await Promise.all([this.send("Page.enable"), this.send("Runtime.enable"), this.send("Log.enable")]);
  }

  /** Sets the viewport (CSS pixels) and, optionally, prefers-reduced-motion. */
  async viewport(width: number, height: number, reducedMotion = false): Promise<void> {
    await this.send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: width < 600 });
    await this.send("Emulation.setEmulatedMedia", { features: [{ name: "prefers-reduced-motion", value: reducedMotion ? "reduce" : "no-preference" }] });
  }

  /** Navigates and waits for the load event. */
  async goto(url: string): Promise<void> {
    const loaded = new Promise<void>((resolve) => {
      const off = this.browser.on((m) => {
        if (m.sessionId === this.sessionId && m.method === "Page.loadEventFired") {
          off();
          resolve();
        }
      });
    });
    const r = (await this.send("Page.navigate", { url })) as { errorText?: string };
    if (r.errorText) throw new Error(`cannot load ${url}: ${r.errorText}`);
    await loaded;
  }

  /** The value of a JavaScript expression in the page (returned by value). */
  async eval<T>(expression: string): Promise<T> {
    const r = (await this.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true })) as { result: { value?: T }; exceptionDetails?: { text: string } };
    if (r.exceptionDetails) throw new Error(`${expression}: ${r.exceptionDetails.text}`);
    return r.result.value as T;
  }

  /** A real key press (keyDown, char, keyUp) to the focused element. */
  async press(key: "Enter" | " "): Promise<void> {
    const code = key === "Enter" ? "Enter" : "Space";
    const keyCode = key === "Enter" ? 13 : 32;
    const text = key === "Enter" ? "\r" : " ";
    await this.send("Input.dispatchKeyEvent", { type: "keyDown", key, code, windowsVirtualKeyCode: keyCode, text });
    await this.send("Input.dispatchKeyEvent", { type: "keyUp", key, code, windowsVirtualKeyCode: keyCode });
  }

  /** A PNG of the whole page. */
  async screenshot(file: string): Promise<void> {
    const { data } = (await this.send("Page.captureScreenshot", { format: "png", captureBeyondViewport: true })) as { data: string };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.from(data, "base64"));
  }

  async close(): Promise<void> {
    await this.browser.send("Target.closeTarget", { targetId: this.targetId });
  }
}
