// kubectl's command-line overrides of the kubeconfig (client-go clientcmd's rules, restated),
// pure and table-tested:
// - --context picks the context; --cluster and --user replace the names it points at; -n its namespace.
// - --server, --certificate-authority, --insecure-skip-tls-verify, --tls-server-name replace the
//   cluster's fields. --insecure-skip-tls-verify or --certificate-authority on the line replace all
//   three trust settings of the file (so a file's CA does not clash with the flag); --server or
//   --tls-server-name on the line replace the file's tls-server-name (with the flag's, maybe none).
// - --token, --username/--password, --client-certificate/--client-key replace the user's fields;
//   a --token also replaces the file's tokenFile.
// - --as, --as-group (repeatable), --as-uid replace the user's as, as-groups, as-uid; groups, uid
//   and extras without a user to impersonate are refused.
// - Then kubectl's validation: a CA with insecure-skip-tls-verify, and two of token / basic auth
//   (or an auth provider with an exec plugin) are refused with kubectl's words.
import type { Named } from "./kubeconfig.ts";

export interface ConfigOverrides {
  readonly cluster?: string;
  readonly user?: string;
  readonly server?: string;
  readonly certificateAuthority?: string;
  readonly insecureSkipTlsVerify?: boolean;
  readonly tlsServerName?: string;
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
  readonly clientCertificate?: string;
  readonly clientKey?: string;
  readonly as?: string;
  readonly asGroups?: readonly string[];
  readonly asUid?: string;
}

export type Fields = Record<string, unknown>;

function set(target: Fields, key: string, value: unknown): void {
  if (value !== undefined && value !== "") target[key] = value;
}

/** The cluster's fields after the command line's overrides. */
export function overrideCluster(cluster: Fields, o: ConfigOverrides): Fields {
  const out: Fields = { ...cluster };
  set(out, "server", o.server);
  if (o.insecureSkipTlsVerify === true || (o.certificateAuthority ?? "") !== "") {
    delete out["certificate-authority"];
    delete out["certificate-authority-data"];
    out["insecure-skip-tls-verify"] = o.insecureSkipTlsVerify === true;
    set(out, "certificate-authority", o.certificateAuthority);
  }
  if ((o.tlsServerName ?? "") !== "" || (o.server ?? "") !== "") {
    delete out["tls-server-name"];
    set(out, "tls-server-name", o.tlsServerName);
  }
  return out;
}

/** The user's fields after the command line's overrides. */
export function overrideUser(user: Fields, o: ConfigOverrides): Fields {
  const out: Fields = { ...user };
  if ((o.token ?? "") !== "") {
    out.token = o.token;
    delete out.tokenFile;
  }
  set(out, "username", o.username);
  set(out, "password", o.password);
  if ((o.clientCertificate ?? "") !== "") {
    delete out["client-certificate-data"];
    out["client-certificate"] = o.clientCertificate;
  }
  if ((o.clientKey ?? "") !== "") {
    delete out["client-key-data"];
    out["client-key"] = o.clientKey;
  }
  set(out, "as", o.as);
  if (o.asGroups && o.asGroups.length > 0) out["as-groups"] = [...o.asGroups];
  set(out, "as-uid", o.asUid);
  return out;
}

function nonEmpty(v: unknown): boolean {
  return typeof v === "string" ? v !== "" : Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null && typeof v === "object" ? Object.keys(v).length > 0 : false;
}

/** kubectl's refusals of a cluster and user that contradict themselves; undefined when fine. */
export function validate(cluster: Fields, user: Fields, userName: string): string | undefined {
  if (cluster["insecure-skip-tls-verify"] === true && (nonEmpty(cluster["certificate-authority"]) || nonEmpty(cluster["certificate-authority-data"]))) {
    return "specifying a root certificates file with the insecure flag is not allowed";
  }
  const methods: string[] = [];
  if (nonEmpty(user.token)) methods.push("token");
  if (nonEmpty(user.username) || nonEmpty(user.password)) methods.push("basicAuth");
  if (methods.length > 1) return `more than one authentication method found for ${userName}; found [${methods.join(" ")}], only one is allowed`;
  if (nonEmpty(user["auth-provider"]) && nonEmpty(user.exec)) return `authProvider cannot be provided in combination with an exec plugin for ${userName}`;
  if (!nonEmpty(user.as) && (nonEmpty(user["as-groups"]) || nonEmpty(user["as-uid"]) || nonEmpty(user["as-user-extra"]))) {
    return `requesting uid, groups or user-extra for ${userName} without impersonating a user`;
  }
  return undefined;
}

/** Impersonation headers from the user's as, as-uid, as-groups and as-user-extra. */
export function impersonationHeaders(user: Fields): Record<string, string | string[]> {
  const h: Record<string, string | string[]> = {};
  if (typeof user.as !== "string" || user.as === "") return h;
  h["impersonate-user"] = user.as;
  if (typeof user["as-uid"] === "string" && user["as-uid"] !== "") h["impersonate-uid"] = user["as-uid"];
  const groups = Array.isArray(user["as-groups"]) ? user["as-groups"].filter((g): g is string => typeof g === "string") : [];
  if (groups.length > 0) h["impersonate-group"] = groups;
  const extra = user["as-user-extra"];
  if (extra && typeof extra === "object" && !Array.isArray(extra)) {
    for (const [key, values] of Object.entries(extra as Record<string, unknown>)) {
      const list = (Array.isArray(values) ? values : [values]).filter((v): v is string => typeof v === "string");
      // Header names carry the key percent-encoded (kubernetes' rule for Impersonate-Extra-*).
      if (list.length > 0) h[`impersonate-extra-${encodeURIComponent(key)}`] = list;
    }
  }
  return h;
}

/** The names the context points at, after --cluster and --user. */
export function overrideNames(context: Named | undefined, o: ConfigOverrides): { cluster: string; user: string } {
  const body = (context?.context ?? {}) as Fields;
  return {
    cluster: (o.cluster ?? "") !== "" ? o.cluster! : typeof body.cluster === "string" ? body.cluster : "",
    user: (o.user ?? "") !== "" ? o.user! : typeof body.user === "string" ? body.user : "",
  };
}
