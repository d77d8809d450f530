// The simulator's API client: node:https with the lab's lab-admin client certificate (the
// operator's manager identity in this lab). JSON requests, merge patches, list, and watch
// streams that reconnect (relist on 410 Gone). No caching: every read goes to the API server.
import fs from "node:fs";
import https from "node:https";

export interface LabState {
  server: string;
  caFile: string;
  labDir: string;
  kubeconfig: string;
  users: Record<string, { name: string; cert: string; key: string }>;
}

export type Obj = {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: Array<Record<string, unknown>>;
  };
  spec?: any;
  status?: any;
  [key: string]: any;
};

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, message: string, body: unknown) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

export const GROUP = "operator.ptah.run";
export const VERSION = "v1alpha1";
export const API_VERSION = `${GROUP}/${VERSION}`;

/** Path of a collection or an object: core ("" group) or operator.ptah.run. */
export function resourcePath(plural: string, namespace?: string, name?: string, group = GROUP): string {
  const base = group === "" ? "/api/v1" : `/apis/${group}/${group === GROUP ? VERSION : "v1"}`;
  const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : "";
  return `${base}${ns}/${plural}${name ? `/${encodeURIComponent(name)}` : ""}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Kube {
  private readonly agent: https.Agent;
  private readonly url: URL;

  readonly lab: LabState;

  constructor(lab: LabState) {
    this.lab = lab;
    const admin = lab.users.admin!;
    this.url = new URL(lab.server);
    this.agent = new https.Agent({
      keepAlive: true,
      maxSockets: 16,
      ca: fs.readFileSync(lab.caFile),
      cert: fs.readFileSync(admin.cert),
      key: fs.readFileSync(admin.key),
    });
  }

  request<T = any>(method: string, path: string, body?: unknown, contentType = "application/json"): Promise<T> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = https.request(
        {
          host: this.url.hostname,
          port: this.url.port,
          method,
          path,
          agent: this.agent,
          timeout: 30_000,
          headers: {
            accept: "application/json",
            "user-agent": "ptah-operator-simulator/0.1",
            ...(payload ? { "content-type": contentType, "content-length": String(payload.length) } : {}),
          },
        },
        (res) => {
          const parts: Buffer[] = [];
          res.on("data", (d: Buffer) => parts.push(d));
          res.on("end", () => {
            const text = Buffer.concat(parts).toString("utf8");
            let parsed: any = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              /* keep text */
            }
            const code = res.statusCode ?? 0;
            if (code >= 200 && code < 300) resolve(parsed as T);
            else reject(new ApiError(code, `${method} ${path}: ${code} ${typeof parsed === "object" && parsed?.message ? parsed.message : text.slice(0, 300)}`, parsed));
          });
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error(`${method} ${path}: timed out`)));
      req.on("error", reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  /** The object, or undefined on 404. */
  async get<T = Obj>(path: string): Promise<T | undefined> {
    try {
      return await this.request<T>("GET", path);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  async list(path: string): Promise<Obj[]> {
    const items: Obj[] = [];
    let cont = "";
    do {
      const sep = path.includes("?") ? "&" : "?";
      const page = await this.request<{ items: Obj[]; metadata: { continue?: string } }>("GET", `${path}${sep}limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ""}`);
      items.push(...(page.items ?? []));
      cont = page.metadata?.continue ?? "";
    } while (cont);
    return items;
  }

  create<T = Obj>(path: string, obj: unknown): Promise<T> {
    return this.request<T>("POST", path, obj);
  }

  put<T = Obj>(path: string, obj: unknown): Promise<T> {
    return this.request<T>("PUT", path, obj);
  }

  mergePatch<T = Obj>(path: string, patch: unknown): Promise<T> {
    return this.request<T>("PATCH", path, patch, "application/merge-patch+json");
  }

  delete(path: string): Promise<unknown> {
    return this.request("DELETE", path).catch((err) => {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    });
  }

  /**
   * List, then watch from the list's resourceVersion (bookmarks on), forever: reconnects with
   * backoff, relists on 410 Gone. Every listed item is reported as ADDED.
   */
  async watchForever(path: string, onEvent: (type: string, obj: Obj) => void, log: (m: string) => void, stop: { stopped: boolean }, onListed?: () => void): Promise<void> {
    let rv = "";
    let backoff = 200;
    while (!stop.stopped) {
      try {
        if (!rv) {
          const list = await this.request<{ items: Obj[]; metadata: { resourceVersion: string } }>("GET", path);
          rv = list.metadata.resourceVersion;
          for (const item of list.items ?? []) onEvent("ADDED", item);
          onListed?.();
        }
        const sep = path.includes("?") ? "&" : "?";
        await this.streamWatch(`${path}${sep}watch=1&allowWatchBookmarks=true&timeoutSeconds=240&resourceVersion=${rv}`, (type, obj) => {
          if (type === "ERROR") {
            const code = (obj as any)?.code;
            if (code === 410) rv = "";
            throw new ApiError(code ?? 500, `watch ${path}: ${(obj as any)?.message ?? "error event"}`, obj);
          }
          if (obj?.metadata?.resourceVersion) rv = obj.metadata.resourceVersion;
          if (type !== "BOOKMARK") onEvent(type, obj);
        });
        backoff = 200;
      } catch (err) {
        if (stop.stopped) return;
        if (err instanceof ApiError && err.status === 410) rv = "";
        log(`watch ${path}: ${(err as Error).message}; reconnecting in ${backoff}ms`);
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 5_000);
      }
    }
  }

  private streamWatch(path: string, onEvent: (type: string, obj: Obj) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          host: this.url.hostname,
          port: this.url.port,
          method: "GET",
          path,
          agent: this.agent,
          headers: { accept: "application/json", "user-agent": "ptah-operator-simulator/0.1" },
        },
        (res) => {
          if ((res.statusCode ?? 0) >= 300) {
            let text = "";
            res.on("data", (d) => (text += d));
            res.on("end", () => reject(new ApiError(res.statusCode ?? 0, `watch: ${res.statusCode} ${text.slice(0, 200)}`, text)));
            return;
          }
          let buf = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => {
            buf += d;
            let nl: number;
            while ((nl = buf.indexOf("\n")) >= 0) {
              const line = buf.slice(0, nl).trim();
              buf = buf.slice(nl + 1);
              if (!line) continue;
              try {
                const ev = JSON.parse(line) as { type: string; object: Obj };
                onEvent(ev.type, ev.object);
              } catch (err) {
                req.destroy();
                reject(err);
                return;
              }
            }
          });
          res.on("end", () => resolve());
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end();
    });
  }
}
