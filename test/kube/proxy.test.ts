// Which proxy a connection uses: the cluster's proxy-url, else HTTPS_PROXY unless NO_PROXY
// names the server, with Go's net/http rules (what kubectl does).
import { describe, expect, it } from "vitest";
import { ReadError } from "../../src/errors.ts";
import { selectProxy } from "../../src/kube/connect.ts";

const PROXY = "http://proxy.corp:3128";

describe("selectProxy", () => {
  it.each([
    { name: "no proxy settings means a direct connection", server: "https://api.example.com:6443", cluster: {}, env: {}, proxy: undefined },
    { name: "HTTPS_PROXY is used for the https API server", server: "https://api.example.com:6443", cluster: {}, env: { HTTPS_PROXY: PROXY }, proxy: `${PROXY}/` },
    { name: "lower-case https_proxy is honoured too", server: "https://api.example.com", cluster: {}, env: { https_proxy: PROXY }, proxy: `${PROXY}/` },
    { name: "HTTPS_PROXY wins over https_proxy", server: "https://api.example.com", cluster: {}, env: { HTTPS_PROXY: PROXY, https_proxy: "http://other:1" }, proxy: `${PROXY}/` },
    { name: "HTTP_PROXY alone is not used for https", server: "https://api.example.com", cluster: {}, env: { HTTP_PROXY: PROXY }, proxy: undefined },
    { name: "a proxy without a scheme is taken as http", server: "https://api.example.com", cluster: {}, env: { HTTPS_PROXY: "proxy.corp:3128" }, proxy: `${PROXY}/` },
    { name: "an https proxy is kept as https", server: "https://api.example.com", cluster: {}, env: { HTTPS_PROXY: "https://proxy.corp:8443" }, proxy: "https://proxy.corp:8443/" },
    {
      name: "NO_PROXY naming the host exactly bypasses the proxy",
      server: "https://api.example.com",
      cluster: {},
      env: { HTTPS_PROXY: PROXY, NO_PROXY: "api.example.com" },
      proxy: undefined,
    },
    {
      name: "NO_PROXY naming a parent domain bypasses it for subdomains",
      server: "https://api.example.com",
      cluster: {},
      env: { HTTPS_PROXY: PROXY, NO_PROXY: "example.com" },
      proxy: undefined,
    },
    {
      name: "NO_PROXY with a leading dot matches subdomains",
      server: "https://api.example.com",
      cluster: {},
      env: { HTTPS_PROXY: PROXY, NO_PROXY: ".example.com" },
      proxy: undefined,
    },
    {
      name: "NO_PROXY with a leading dot does not match the bare domain (Go's rule)",
      server: "https://example.com",
      cluster: {},
      env: { HTTPS_PROXY: PROXY, NO_PROXY: ".example.com" },
      proxy: `${PROXY}/`,
    },
    { name: "NO_PROXY with *. matches subdomains", server: "https://api.example.com", cluster: {}, env: { HTTPS_PROXY: PROXY, NO_PROXY: "*.example.com" }, proxy: undefined },
    {
      name: "NO_PROXY does not match a mere name suffix",
      server: "https://api.badexample.com",
      cluster: {},
      env: { HTTPS_PROXY: PROXY, NO_PROXY: "example.com" },
      proxy: `${PROXY}/`,
    },
    {
      name: "NO_PROXY entries are trimmed and case-insensitive",
      server: "https://API.Example.com",
      cluster: {},
      env: { HTTPS_PROXY: PROXY, NO_PROXY: " other.org , EXAMPLE.COM " },
      proxy: undefined,
    },
    { name: "NO_PROXY=* bypasses the proxy for everything", server: "https://api.example.com", cluster: {}, env: { HTTPS_PROXY: PROXY, NO_PROXY: "*" }, proxy: undefined },
    { name: "lower-case no_proxy is honoured", server: "https://api.example.com", cluster: {}, env: { HTTPS_PROXY: PROXY, no_proxy: "example.com" }, proxy: undefined },
    {
      name: "a NO_PROXY entry with the server's port matches",
      server: "https://api.example.com:6443",
      cluster: {},
      env: { HTTPS_PROXY: PROXY, NO_PROXY: "api.example.com:6443" },
      proxy: undefined,
    },
    {
      name: "a NO_PROXY entry with another port does not match",
      server: "https://api.example.com:6443",
      cluster: {},
      env: { HTTPS_PROXY: PROXY, NO_PROXY: "api.example.com:443" },
      proxy: `${PROXY}/`,
    },
    {
      name: "a NO_PROXY entry with :443 matches the default https port",
      server: "https://api.example.com",
      cluster: {},
      env: { HTTPS_PROXY: PROXY, NO_PROXY: "api.example.com:443" },
      proxy: undefined,
    },
    { name: "a NO_PROXY IP matches that IP", server: "https://10.0.0.1:6443", cluster: {}, env: { HTTPS_PROXY: PROXY, NO_PROXY: "10.0.0.1" }, proxy: undefined },
    {
      name: "a NO_PROXY CIDR matches an IP inside it",
      server: "https://10.96.0.1",
      cluster: {},
      env: { HTTPS_PROXY: PROXY, NO_PROXY: "192.168.0.0/16,10.0.0.0/8" },
      proxy: undefined,
    },
    { name: "a NO_PROXY CIDR does not match an IP outside it", server: "https://11.0.0.1", cluster: {}, env: { HTTPS_PROXY: PROXY, NO_PROXY: "10.0.0.0/8" }, proxy: `${PROXY}/` },
    { name: "an IPv6 CIDR matches an IPv6 server", server: "https://[fd00::1]:6443", cluster: {}, env: { HTTPS_PROXY: PROXY, NO_PROXY: "fd00::/8" }, proxy: undefined },
    { name: "localhost is never proxied (Go's rule)", server: "https://localhost:6443", cluster: {}, env: { HTTPS_PROXY: PROXY }, proxy: undefined },
    { name: "a loopback IP is never proxied (Go's rule)", server: "https://127.0.0.1:6443", cluster: {}, env: { HTTPS_PROXY: PROXY }, proxy: undefined },
    {
      name: "the cluster's proxy-url wins over HTTPS_PROXY",
      server: "https://api.example.com",
      cluster: { "proxy-url": "http://cluster-proxy:8080" },
      env: { HTTPS_PROXY: PROXY },
      proxy: "http://cluster-proxy:8080/",
    },
    {
      name: "the cluster's proxy-url applies even when NO_PROXY names the host",
      server: "https://api.example.com",
      cluster: { "proxy-url": "http://cluster-proxy:8080" },
      env: { NO_PROXY: "example.com" },
      proxy: "http://cluster-proxy:8080/",
    },
    { name: "an empty proxy-url falls back to the environment", server: "https://api.example.com", cluster: { "proxy-url": "" }, env: { HTTPS_PROXY: PROXY }, proxy: `${PROXY}/` },
  ])("$name", ({ server, cluster, env, proxy }) => {
    expect(selectProxy(cluster, new URL(server), env)?.toString()).toBe(proxy);
  });

  it.each([
    { name: "a SOCKS proxy", cluster: { "proxy-url": "socks5://proxy:1080" }, env: {}, message: "proxy socks5://proxy:1080 is not supported: only http and https proxies are" },
    { name: "a malformed proxy URL", cluster: {}, env: { HTTPS_PROXY: "http://[bad" }, message: "invalid proxy URL http://[bad" },
  ])("refuses $name with a read error", ({ cluster, env, message }) => {
    expect(() => selectProxy(cluster, new URL("https://api.example.com"), env)).toThrow(ReadError);
    expect(() => selectProxy(cluster, new URL("https://api.example.com"), env)).toThrow(message);
  });
});
