// The seed's HTTP client: node:https with keep-alive to the lab's API server as lab-admin (client
// certificate from lab.json), a bounded number of requests in flight, retries of 429/5xx.
import fs from "node:fs";
import https from "node:https";

export const GROUP = "operator.ptah.run";
export const API_VERSION = `${GROUP}/v1alpha1`;
export const SEED_USER_AGENT = "ptah-bench-seed/1";

export class ApiClient {
  constructor(lab, { concurrency = 16 } = {}) {
    const admin = lab.users.admin;
    this.server = new URL(lab.server);
    this.agent = new https.Agent({
      keepAlive: true,
      maxSockets: concurrency,
      ca: fs.readFileSync(lab.caFile),
      cert: fs.readFileSync(admin.cert),
      key: fs.readFileSync(admin.key),
    });
    this.requests = 0;
  }

  close() {
    this.agent.destroy();
  }

  /** One request; resolves { status, body } (body parsed when JSON). Retries 429/5xx and resets. */
  async request(method, path, body, { contentType = "application/json", ok = [200, 201] } = {}) {
    for (let attempt = 0; ; attempt++) {
      let res;
      try {
        res = await this.#once(method, path, body, contentType);
      } catch (err) {
        if (attempt < 5) {
          await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
          continue;
        }
        throw err;
      }
      if ((res.status === 429 || res.status >= 500) && attempt < 5) {
        await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
        continue;
      }
      if (!ok.includes(res.status)) {
        const msg = typeof res.body === "object" && res.body?.message ? res.body.message : String(res.body).slice(0, 500);
        const err = new Error(`${method} ${path}: HTTP ${res.status}: ${msg}`);
        err.status = res.status;
        throw err;
      }
      return res;
    }
  }

  #once(method, path, body, contentType) {
    this.requests++;
    const payload = body === undefined ? undefined : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          host: this.server.hostname,
          port: this.server.port,
          method,
          path,
          agent: this.agent,
          timeout: 120_000,
          headers: {
            "user-agent": SEED_USER_AGENT,
            accept: "application/json",
            ...(payload ? { "content-type": contentType, "content-length": String(payload.length) } : {}),
          },
        },
        (res) => {
          const parts = [];
          res.on("data", (d) => parts.push(d));
          res.on("end", () => {
            const text = Buffer.concat(parts).toString("utf8");
            let parsed = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              /* not JSON */
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error("timed out")));
      req.on("error", reject);
      req.end(payload);
    });
  }

  create(plural, namespace, object) {
    return this.request("POST", `/apis/${GROUP}/v1alpha1/namespaces/${namespace}/${plural}`, object).then((r) => r.body);
  }

  patchStatus(plural, namespace, name, status) {
    return this.request("PATCH", `/apis/${GROUP}/v1alpha1/namespaces/${namespace}/${plural}/${name}/status`, { status }, { contentType: "application/merge-patch+json" }).then(
      (r) => r.body,
    );
  }

  async ensureNamespace(name) {
    await this.request("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name } }, { ok: [201, 409] });
  }
}

/** Runs task(i) for every i in [from, to) with at most `limit` in flight. */
export async function pool(from, to, limit, task, onProgress) {
  let next = from;
  let done = 0;
  const workers = Array.from({ length: Math.min(limit, Math.max(0, to - from)) }, async () => {
    while (next < to) {
      const i = next++;
      await task(i);
      done++;
      onProgress?.(done);
    }
  });
  await Promise.all(workers);
}
