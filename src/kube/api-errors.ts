// The only code that knows HTTP status codes, Status bodies and socket error codes: it turns
// them into NotFoundError (exit 3) or ReadError (exit 1) with kubectl's wording.
import { NotFoundError, ReadError, sanitize } from "../errors.ts";

export interface RequestDescription {
  readonly verb: string;
  /** plural.group, e.g. "ptahschemas.operator.ptah.run" */
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly name?: string;
}

interface StatusBody {
  kind?: string;
  message?: string;
  reason?: string;
  code?: number;
}

function parseStatus(body: Buffer): StatusBody | undefined {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as unknown;
    if (parsed && typeof parsed === "object" && (parsed as StatusBody).kind === "Status") return parsed as StatusBody;
  } catch {
    /* not JSON */
  }
  return undefined;
}

/** Ends an error doctor would explain: a Forbidden on a Ptah kind, a missing Ptah CRD. */
export const DOCTOR_HINT = " (kubectl ptah doctor explains what is missing)";

/** A Ptah kind the server does not serve (its CRD is not installed). */
export function missingPtahKind(plural: string): string {
  return `the server doesn't have a resource type "${plural}": is the Ptah operator's CRD installed?${DOCTOR_HINT}`;
}

/**
 * A 404 about the resource type rather than one object: no Status at all ("404 page not found",
 * the group is not served) or the apiserver's wording for an unknown resource.
 */
export function isMissingType(body: Buffer): boolean {
  const s = parseStatus(body);
  return s === undefined || s.message === "the server could not find the requested resource";
}

function isPtahResource(d: RequestDescription): boolean {
  return d.resource.endsWith(".operator.ptah.run");
}

function where(d: RequestDescription): string {
  return d.namespace ? ` in the namespace "${d.namespace}"` : " at the cluster scope";
}

/** A non-2xx answer as one line. */
export function apiError(status: number, body: Buffer, d: RequestDescription): NotFoundError | ReadError {
  const s = parseStatus(body);
  const serverMessage = s?.message ? sanitize(s.message) : undefined;
  switch (status) {
    case 404:
      return new NotFoundError(serverMessage ?? (d.name ? `${d.resource} "${d.name}" not found` : `the server could not find the requested resource (${d.resource})`));
    case 401:
      return new ReadError("You must be logged in to the server (Unauthorized)", 401);
    case 403:
      // The server's own message names user, verb, resource and namespace; keep it, and say
      // which rule grants it. (An admission webhook may also answer 403: no RBAC hint then.)
      if (serverMessage && !/ cannot \S+ resource /u.test(serverMessage)) return new ReadError(serverMessage, 403);
      return new ReadError(
        `${serverMessage ?? `forbidden: cannot ${d.verb} resource "${d.resource}"${where(d)}`} (needs an RBAC rule granting "${d.verb}" on ${d.resource})${isPtahResource(d) ? DOCTOR_HINT : ""}`,
        403,
      );
    case 410:
      return new ReadError(serverMessage ?? "the resource version is too old (410 Gone)", 410);
    case 429:
      return new ReadError(`the server is throttling requests (429 Too Many Requests)${serverMessage ? `: ${serverMessage}` : ""}`, 429);
    default: {
      if (serverMessage) return new ReadError(`${serverMessage} (${status})`, status);
      const text = sanitize(body.toString("utf8").slice(0, 200).trim());
      return new ReadError(`the server answered ${status} to ${d.verb} ${d.resource}${text ? `: ${text}` : ""}`, status);
    }
  }
}

export function invalidJsonError(d: RequestDescription): ReadError {
  return new ReadError(`the server's answer to ${d.verb} ${d.resource} is not valid JSON (a truncated or corrupted response)`);
}

/** A body the server sent as JSON; one that does not parse is the request's invalid-JSON error. */
export function parseJsonBody(body: Buffer, d: RequestDescription): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw invalidJsonError(d);
  }
}

/** The JSON of a 200 answer; any other status is the API error it stands for. */
export function okJson(res: { readonly status: number; readonly body: Buffer }, d: RequestDescription): unknown {
  if (res.status !== 200) throw apiError(res.status, res.body, d);
  return parseJsonBody(res.body, d);
}

interface Endpoint {
  readonly server: URL;
}

/** A socket/TLS/timeout failure as kubectl words it. */
export function connectionError(err: unknown, endpoint: Endpoint, timeoutMs: number): ReadError {
  if (err instanceof ReadError) return err;
  const e = err as NodeJS.ErrnoException & { reason?: string };
  const host = endpoint.server.host;
  switch (e.code) {
    case "PTAH_TIMEOUT":
      return new ReadError(`the server ${host} did not answer within ${timeoutMs / 1000}s (--request-timeout)`);
    case "ECONNREFUSED":
      return new ReadError(`the connection to the server ${host} was refused - did you specify the right host or port?`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new ReadError(`unable to connect to the server: dial tcp: lookup ${endpoint.server.hostname}: no such host`);
    case "ECONNRESET":
    case "EPIPE":
      return new ReadError(`the connection to the server ${host} was reset`);
    case "ETIMEDOUT":
    case "PTAH_DIAL_TIMEOUT":
      return new ReadError(`unable to connect to the server ${host}: i/o timeout`);
    case "PTAH_TLS_HANDSHAKE_TIMEOUT":
      return new ReadError(`unable to connect to the server ${host}: net/http: TLS handshake timeout`);
    case "CERT_HAS_EXPIRED":
      return new ReadError(`unable to connect to the server: x509: certificate has expired or is not yet valid`);
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "UNABLE_TO_GET_ISSUER_CERT":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
      return new ReadError(`unable to connect to the server: x509: certificate signed by unknown authority`);
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return new ReadError(`unable to connect to the server: x509: certificate is not valid for ${sanitize(endpoint.server.hostname)}`);
    case "ABORT_ERR":
      return new ReadError("the request was cancelled");
    default: {
      const message = e.message ? sanitize(e.message) : String(err);
      if (/alert|ssl|tls/i.test(message)) return new ReadError(`unable to connect to the server: tls: ${message}`);
      return new ReadError(`unable to connect to the server ${host}: ${message}`);
    }
  }
}
