// The transport's agent of a client certificate that rotated (kube/http.ts): it takes no new
// requests, closes its idle connections now and each busy one when its response is done, so
// the requests in flight on the old certificate finish (destroying the agent would reset them).
import type http from "node:http";

export function retireAgent(old: http.Agent): http.Agent {
  old.keepSocketAlive = () => false; // a socket its response frees is closed, not pooled
  for (const sockets of Object.values(old.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  return old;
}
