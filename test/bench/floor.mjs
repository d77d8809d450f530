#!/usr/bin/env node
// The floor of a Node plugin: the requests a command sends, sent by raw node:https and
// nothing else (no library, no model, no rendering), reading $KUBECONFIG the way the plugin does
// (current context → its cluster's server and CA, its user's client certificate and key; the
// lab's kubeconfigs carry them inline as *-data). Every body is read and JSON-parsed, as any
// client must before it can use it (and to follow `continue` on a list).
//
//   node test/bench/floor.mjs STEP...
//
// Steps run one after another; a step is one or more requests, `&`-separated, sent in parallel:
// `get PATH` (one GET) or `list PATH` (GET PATH?limit=500, then every `continue` page).
// Exit 0 when every answer was 200, else 1 with one line on stderr.
import fs from "node:fs";
import https from "node:https";

/** The few scalars the plugin reads from a kubeconfig, found by indentation (block YAML only). */
function readKubeconfig(file) {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const sections = {};
  let section;
  let entry;
  for (const line of lines) {
    const item = /^- name:\s*(\S+)/.exec(line);
    if (item) {
      entry = item[1];
      sections[section][entry] = {};
      continue;
    }
    if (/^\S/.test(line)) {
      const m = /^([\w-]+):\s*(.*)$/.exec(line);
      entry = undefined;
      if (m) {
        section = m[1];
        sections[section] = m[2] ? m[2] : {};
      }
      continue;
    }
    const kv = /^\s+([\w-]+):\s*(\S+)/.exec(line);
    if (kv && entry && typeof sections[section] === "object") sections[section][entry][kv[1]] = kv[2];
  }
  const context = sections.contexts[sections["current-context"]];
  const cluster = sections.clusters[context.cluster];
  const user = sections.users[context.user];
  const data = (v) => Buffer.from(v, "base64");
  return {
    server: new URL(cluster.server),
    ca: data(cluster["certificate-authority-data"]),
    cert: data(user["client-certificate-data"]),
    key: data(user["client-key-data"]),
  };
}

const kc = readKubeconfig(process.env.KUBECONFIG);
const agent = new https.Agent({ keepAlive: true, ca: kc.ca, cert: kc.cert, key: kc.key });

function get(path) {
  return new Promise((resolve, reject) => {
    const req = https.get({ agent, host: kc.server.hostname, port: kc.server.port, path, headers: { accept: "application/json", "user-agent": "kubectl-ptah-floor/1" } }, (res) => {
      const parts = [];
      res.on("data", (d) => parts.push(d));
      res.on("end", () => {
        if (res.statusCode !== 200) return reject(new Error(`${path}: HTTP ${res.statusCode}`));
        resolve(JSON.parse(Buffer.concat(parts).toString("utf8")));
      });
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

async function send(request) {
  const [verb, path] = request.trim().split(/\s+/);
  if (verb === "get") return get(path);
  let token = "";
  do {
    const sep = path.includes("?") ? "&" : "?";
    const page = await get(`${path}${sep}limit=500${token ? `&continue=${encodeURIComponent(token)}` : ""}`);
    token = page.metadata?.continue ?? "";
  } while (token);
}

try {
  for (const step of process.argv.slice(2)) await Promise.all(step.split("&").map(send));
  agent.destroy();
} catch (err) {
  process.stderr.write(`floor: ${err.message}\n`);
  process.exit(1);
}
