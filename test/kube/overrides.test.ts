// kubectl's command-line overrides of the kubeconfig and its refusals (kube/overrides.ts), as a table.
import { describe, expect, it } from "vitest";
import { impersonationHeaders, overrideCluster, overrideUser, validate, type ConfigOverrides, type Fields } from "../../src/kube/overrides.ts";

describe("overrideCluster", () => {
  const file: Fields = { server: "https://file", "certificate-authority-data": "Q0E=", "tls-server-name": "file-name" };
  it.each<{ name: string; o: ConfigOverrides; out: Fields }>([
    { name: "no flags: the file as it is", o: {}, out: file },
    {
      name: "--server replaces the server and clears the file's tls-server-name",
      o: { server: "https://flag" },
      out: { server: "https://flag", "certificate-authority-data": "Q0E=" },
    },
    {
      name: "--server with --tls-server-name keeps the flag's name",
      o: { server: "https://flag", tlsServerName: "flag-name" },
      out: { server: "https://flag", "certificate-authority-data": "Q0E=", "tls-server-name": "flag-name" },
    },
    {
      name: "--insecure-skip-tls-verify drops the file's CA (no clash)",
      o: { insecureSkipTlsVerify: true },
      out: { server: "https://file", "insecure-skip-tls-verify": true, "tls-server-name": "file-name" },
    },
    {
      name: "--certificate-authority replaces the file's CA data",
      o: { certificateAuthority: "/ca.crt" },
      out: { server: "https://file", "insecure-skip-tls-verify": false, "certificate-authority": "/ca.crt", "tls-server-name": "file-name" },
    },
  ])("$name", ({ o, out }) => {
    expect(overrideCluster(file, o)).toEqual(out);
  });
});

describe("overrideUser", () => {
  it.each<{ name: string; user: Fields; o: ConfigOverrides; out: Fields }>([
    { name: "--token replaces token and tokenFile", user: { tokenFile: "/t" }, o: { token: "flag" }, out: { token: "flag" } },
    { name: "--username/--password set basic auth", user: {}, o: { username: "u", password: "p" }, out: { username: "u", password: "p" } },
    {
      name: "--client-certificate/--client-key replace the data fields",
      user: { "client-certificate-data": "x", "client-key-data": "y" },
      o: { clientCertificate: "/c", clientKey: "/k" },
      out: { "client-certificate": "/c", "client-key": "/k" },
    },
    {
      name: "--as, --as-group, --as-uid replace the file's impersonation",
      user: { as: "file", "as-groups": ["fg"] },
      o: { as: "alice", asGroups: ["a", "b"], asUid: "42" },
      out: { as: "alice", "as-groups": ["a", "b"], "as-uid": "42" },
    },
    { name: "no flags: the file's user as it is", user: { as: "file", "as-groups": ["fg"], token: "t" }, o: {}, out: { as: "file", "as-groups": ["fg"], token: "t" } },
  ])("$name", ({ user, o, out }) => {
    expect(overrideUser(user, o)).toEqual(out);
  });
});

describe("validate (kubectl's words)", () => {
  it.each<{ name: string; cluster: Fields; user: Fields; message: string | undefined }>([
    {
      name: "a CA with insecure-skip-tls-verify",
      cluster: { "insecure-skip-tls-verify": true, "certificate-authority": "/ca" },
      user: {},
      message: "specifying a root certificates file with the insecure flag is not allowed",
    },
    {
      name: "CA data with insecure-skip-tls-verify",
      cluster: { "insecure-skip-tls-verify": true, "certificate-authority-data": "Q0E=" },
      user: {},
      message: "specifying a root certificates file with the insecure flag is not allowed",
    },
    {
      name: "a token and basic auth",
      cluster: {},
      user: { token: "t", username: "u", password: "p" },
      message: "more than one authentication method found for me; found [token basicAuth], only one is allowed",
    },
    {
      name: "an auth provider and an exec plugin",
      cluster: {},
      user: { "auth-provider": { name: "oidc" }, exec: { command: "x" } },
      message: "authProvider cannot be provided in combination with an exec plugin for me",
    },
    {
      name: "groups without a user to impersonate",
      cluster: {},
      user: { "as-groups": ["g"] },
      message: "requesting uid, groups or user-extra for me without impersonating a user",
    },
    { name: "a uid without a user to impersonate", cluster: {}, user: { "as-uid": "1" }, message: "requesting uid, groups or user-extra for me without impersonating a user" },
    { name: "insecure without a CA is fine", cluster: { "insecure-skip-tls-verify": true }, user: { token: "t" }, message: undefined },
  ])("$name", ({ cluster, user, message }) => {
    expect(validate(cluster, user, "me")).toBe(message);
  });
});

describe("impersonationHeaders", () => {
  it("sends user, uid, every group and every extra (keys percent-encoded)", () => {
    expect(impersonationHeaders({ as: "alice", "as-uid": "42", "as-groups": ["a", "b"], "as-user-extra": { "acme.com/project": ["p1", "p2"], scopes: "s" } })).toEqual({
      "impersonate-user": "alice",
      "impersonate-uid": "42",
      "impersonate-group": ["a", "b"],
      "impersonate-extra-acme.com%2Fproject": ["p1", "p2"],
      "impersonate-extra-scopes": ["s"],
    });
  });
  it("sends nothing without a user", () => {
    expect(impersonationHeaders({ "as-groups": ["a"] })).toEqual({});
  });
});
