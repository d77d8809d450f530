// The krew manifest: plugin-manifest/ptah.yaml (the krew-release-bot template, the one source of
// the text) rendered for archives laid out as the release builds them, checked against krew's
// rules (krew/validate-manifest.mjs, whose rules are tested here too), and by krew's own
// validate-krew-manifest and `kubectl krew install --manifest --archive` (built once; see below).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import yaml from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- plain .mjs release tooling, no type declarations
import { archiveName, binaryName, completeHelperName, PLATFORMS } from "../../krew/platforms.mjs";
// @ts-expect-error -- plain .mjs release tooling, no type declarations
import { renderManifest, renderManifestFile, TEMPLATE, TEMPLATE_REPOSITORY } from "../../krew/render-manifest.mjs";
// @ts-expect-error -- plain .mjs release tooling, no type declarations
import { createTarGz, readTarGz } from "../../krew/tar.mjs";
// @ts-expect-error -- plain .mjs release tooling, no type declarations
import { coveredPairs, validateArchive, validateManifest } from "../../krew/validate-manifest.mjs";
import { KUBECTL_COMPLETE_SCRIPT } from "../../src/commands/completion/completion-command.ts";
import { needTool } from "../support/machine-tools.ts";

interface Platform {
  os: string;
  arch: string;
}
type Doc = {
  spec: {
    version: string;
    homepage: string;
    shortDescription: string;
    description: string;
    caveats: string;
    platforms: Array<Record<string, unknown> & { uri: string; sha256: string; bin: string; files?: Array<{ from: string; to: string }>; selector: Record<string, unknown> }>;
  };
} & Record<string, unknown>;

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const VERSION = `v${(JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version}`;
const TEMPLATE_TEXT = fs.readFileSync(TEMPLATE as string, "utf8");
const LICENSE = fs.readFileSync(path.join(ROOT, "LICENSE"));

let dir = "";
let releaseDir = "";

/** An archive laid out as krew/build-binary.mjs lays it out, with a stand-in binary. */
function fakeArchive(p: Platform): Buffer {
  return createTarGz([
    { name: binaryName(p.os) as string, data: Buffer.from(`#!/bin/sh\necho kubectl-ptah ${VERSION} ${p.os}/${p.arch}\n`), mode: 0o755 },
    { name: "LICENSE", data: LICENSE, mode: 0o644 },
    { name: completeHelperName(p.os) as string, data: Buffer.from(KUBECTL_COMPLETE_SCRIPT), mode: 0o755 },
  ]) as Buffer;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-manifest-"));
  releaseDir = path.join(dir, "release");
  fs.mkdirSync(releaseDir);
  for (const p of PLATFORMS as Platform[]) fs.writeFileSync(path.join(releaseDir, archiveName(VERSION, p.os, p.arch) as string), fakeArchive(p));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function renderAll(): { file: string; doc: Doc; text: string } {
  const file = path.join(dir, "out", "ptah.yaml");
  const rendered = renderManifestFile({ releaseDir, out: file, version: VERSION, repository: undefined, onlyAvailable: false }) as { text: string };
  return { file, doc: yaml.load(rendered.text) as Doc, text: rendered.text };
}

describe("plugin-manifest/ptah.yaml (the template)", () => {
  it("uses only krew-release-bot's template actions: {{ .TagName }} and addURIAndSha per platform", () => {
    const actions = [...TEMPLATE_TEXT.matchAll(/\{\{(.*?)\}\}/gu)].map((m) => m[1]!.trim());
    for (const a of actions) expect(a === ".TagName" || a.startsWith('addURIAndSha "')).toBe(true);
    expect(TEMPLATE_TEXT).toMatch(/^ {2}version: \{\{ \.TagName \}\}$/mu);
    expect(TEMPLATE_TEXT.match(/addURIAndSha/gu)).toHaveLength((PLATFORMS as Platform[]).length);
  });

  it("renders, for archives of every platform, into a manifest that passes krew's rules", () => {
    const { file, doc } = renderAll();
    expect(validateManifest(doc, { fileName: path.basename(file) })).toEqual([]);
    expect(doc.spec.version).toBe(VERSION);
  });

  it("covers darwin, linux and windows on amd64 and arm64, each exactly once", () => {
    const { doc } = renderAll();
    const pairs = (coveredPairs(doc) as string[][]).map((p) => {
      expect(p).toHaveLength(1);
      return p[0];
    });
    expect(pairs.sort()).toEqual((PLATFORMS as Platform[]).map((p) => `${p.os}/${p.arch}`).sort());
  });

  it("points every uri at the release of this version, named as the build names archives, with that archive's sha256", () => {
    const { doc } = renderAll();
    for (const p of doc.spec.platforms) {
      const labels = (p.selector as { matchLabels: Platform }).matchLabels;
      const name = archiveName(VERSION, labels.os, labels.arch) as string;
      expect(p.uri).toBe(`${doc.spec.homepage}/releases/download/${VERSION}/${name}`);
      const archive = fs.readFileSync(path.join(releaseDir, name));
      expect(validateArchive(p, archive)).toEqual([]);
      expect(p.bin).toBe(binaryName(labels.os));
      expect(p.files?.map((f) => f.from)).toEqual([binaryName(labels.os), completeHelperName(labels.os), "LICENSE"]);
    }
  });

  it("says how to enable completion in the caveats (krew cannot install kubectl_complete-ptah)", () => {
    const { doc } = renderAll();
    expect(doc.spec.caveats).toContain("kubectl ptah completion kubectl > ");
    expect(doc.spec.caveats).toContain("kubectl_complete-ptah");
    expect(doc.spec.caveats).toMatch(/kubectl 1\.26/u);
  });

  it("takes the repository URL from --repository (the release workflow passes the GitHub repository)", () => {
    const rendered = renderManifest(TEMPLATE_TEXT, { version: "v9.8.7", repository: "https://github.com/acme/kubectl-ptah", sha256For: () => "a".repeat(64) }) as { text: string };
    const doc = yaml.load(rendered.text) as Doc;
    expect(doc.spec.homepage).toBe("https://github.com/acme/kubectl-ptah");
    expect(doc.spec.platforms[0]!.uri).toMatch(/^https:\/\/github\.com\/acme\/kubectl-ptah\/releases\/download\/v9\.8\.7\/kubectl-ptah_v9\.8\.7_/u);
    expect(rendered.text).not.toContain(TEMPLATE_REPOSITORY);
    expect(rendered.text).not.toContain("{{");
  });

  it("leaves out platforms without an archive for a local build, and refuses that for a release", () => {
    const only = path.join(dir, "only-linux");
    fs.mkdirSync(only, { recursive: true });
    const name = archiveName(VERSION, "linux", "amd64") as string;
    fs.copyFileSync(path.join(releaseDir, name), path.join(only, name));
    const local = renderManifestFile({ releaseDir: only, out: path.join(only, "ptah.yaml"), version: VERSION, onlyAvailable: true }) as { text: string; platforms: string[] };
    expect(local.platforms).toEqual(["linux/amd64"]);
    expect(validateManifest(yaml.load(local.text), { fileName: "ptah.yaml" })).toEqual([]);
    expect(() => renderManifestFile({ releaseDir: only, out: path.join(only, "all.yaml"), version: VERSION, onlyAvailable: false })).toThrow(/no archive for/u);
  });
});

describe("the archive layout", () => {
  it("is reproducible and readable by tar, with modes and LICENSE", () => {
    const p = { os: "linux", arch: "amd64" };
    expect(fakeArchive(p).equals(fakeArchive(p))).toBe(true);
    const file = path.join(releaseDir, archiveName(VERSION, "linux", "amd64") as string);
    const listing = spawnSync("tar", ["tzvf", file], { encoding: "utf8" });
    expect(listing.status).toBe(0);
    expect(listing.stdout).toMatch(/^-rwxr-xr-x root\/root .* kubectl-ptah$/mu);
    expect(listing.stdout).toMatch(/^-rw-r--r-- root\/root .* LICENSE$/mu);
    expect(listing.stdout).toMatch(/^-rwxr-xr-x root\/root .* kubectl_complete-ptah$/mu);
    const entries = readTarGz(fs.readFileSync(file)) as Array<{ name: string; data: Buffer }>;
    expect(entries.find((e) => e.name === "LICENSE")!.data.equals(LICENSE)).toBe(true);
    const extracted = fs.mkdtempSync(path.join(dir, "x-"));
    expect(spawnSync("tar", ["xzf", file, "-C", extracted]).status).toBe(0);
    expect(fs.readFileSync(path.join(extracted, "kubectl_complete-ptah"), "utf8")).toBe(KUBECTL_COMPLETE_SCRIPT);
  });
});

describe("krew/validate-manifest.mjs mirrors krew's rules", () => {
  const valid = (): Doc => structuredClone(renderAll().doc);
  const problems = (mutate: (d: Doc) => void, fileName = "ptah.yaml"): string[] => {
    const d = valid();
    mutate(d);
    return validateManifest(d, { fileName }) as string[];
  };
  const first = (d: Doc) => d.spec.platforms[0]!;

  it.each<[string, (d: Doc) => void, RegExp]>([
    ["a wrong apiVersion", (d) => (d.apiVersion = "krew.googlecontainertools.github.com/v1alpha1"), /apiVersion/u],
    ["a wrong kind", (d) => (d.kind = "Plugins"), /kind/u],
    ["a name with a dot", (d) => ((d.metadata as { name: string }).name = "pta.h"), /metadata\.name/u],
    ["a reserved Windows name", (d) => ((d.metadata as { name: string }).name = "con"), /reserved/u],
    ["a version without v", (d) => (d.spec.version = "0.1.0"), /spec\.version/u],
    ["a version that is not semver", (d) => (d.spec.version = "v1.2"), /spec\.version/u],
    ["an empty shortDescription", (d) => (d.spec.shortDescription = " "), /shortDescription must not be empty/u],
    ["a two-line shortDescription", (d) => (d.spec.shortDescription = "Inspect\nPtah"), /one line/u],
    ["a shortDescription of 51 characters", (d) => (d.spec.shortDescription = "x".repeat(51)), /at most 50/u],
    ["a flag list in the description", (d) => (d.spec.description += "  --namespace  the namespace\n"), /lists a flag/u],
    ["a usage line in the description", (d) => (d.spec.description = "Usage: kubectl ptah status\n"), /usage line/u],
    ["a description line over 80 columns", (d) => (d.spec.description = `${"word ".repeat(17)}\n`), /wider than 80/u],
    ["an unknown spec field", (d) => ((d.spec as Record<string, unknown>).license = "Apache-2.0"), /spec\.license is not a krew field/u],
    ["no platforms", (d) => (d.spec.platforms = []), /at least one platform/u],
    ["an uppercase sha256", (d) => (first(d).sha256 = first(d).sha256.toUpperCase()), /lowercase/u],
    ["a short sha256", (d) => (first(d).sha256 = "abc"), /sha256/u],
    ["a missing uri", (d) => delete (first(d) as Record<string, unknown>).uri, /uri is missing/u],
    ["a raw binary uri", (d) => (first(d).uri = "https://example.com/kubectl-ptah"), /\.tar\.gz or \.zip/u],
    ["a missing bin", (d) => delete (first(d) as Record<string, unknown>).bin, /bin is missing/u],
    ["an empty files list", (d) => (first(d).files = []), /files must be left out or list entries/u],
    ["a files entry without to", (d) => (first(d).files = [{ from: "*", to: "" }]), /\.to is empty/u],
    ["files that do not copy LICENSE", (d) => (first(d).files = first(d).files!.filter((f) => f.from !== "LICENSE")), /LICENSE/u],
    ["an empty selector", (d) => (first(d).selector = {}), /selector must not be empty/u],
    ["a selector key other than os/arch", (d) => (first(d).selector = { matchLabels: { os: "linux", arch: "amd64", distro: "debian" } }), /only os and arch/u],
    ["a selector for no supported platform", (d) => (first(d).selector = { matchLabels: { os: "plan9", arch: "amd64" } }), /matches no supported/u],
    ["overlapping selectors", (d) => (d.spec.platforms[1]!.selector = { matchExpressions: [{ key: "os", operator: "In", values: ["linux"] }] }), /overlaps/u],
    [
      "a windows bin without .exe",
      (d) => d.spec.platforms.filter((p) => (p.selector as { matchLabels: Platform }).matchLabels.os === "windows").forEach((p) => (p.bin = "kubectl-ptah")),
      /\.exe/u,
    ],
  ])("rejects %s", (_what, mutate, message) => {
    const found = problems(mutate);
    expect(found.length).toBeGreaterThan(0);
    expect(found.join("\n")).toMatch(message);
  });

  it("rejects a file name that is not <name>.yaml", () => {
    expect(problems(() => undefined, "kubectl-ptah.yaml").join("\n")).toMatch(/must be <metadata\.name>\.yaml/u);
    expect(problems(() => undefined, "ptah.yml").join("\n")).toMatch(/\.yaml extension/u);
  });

  it("accepts matchExpressions selectors that do not overlap, and a zip uri", () => {
    const found = problems((d) => {
      d.spec.platforms = [
        { ...first(d), uri: "https://example.com/a.zip", selector: { matchExpressions: [{ key: "os", operator: "In", values: ["linux"] }] } },
        { ...first(d), selector: { matchExpressions: [{ key: "os", operator: "NotIn", values: ["linux", "windows"] }] } },
      ];
    });
    expect(found).toEqual([]);
  });

  it("checks an archive against its entry: sha256 and content", () => {
    const d = valid();
    const p = first(d);
    const archive = fs.readFileSync(path.join(releaseDir, path.basename(p.uri)));
    expect(validateArchive({ ...p, sha256: "0".repeat(64) }, archive).join("\n")).toMatch(/sha256 of the archive/u);
    const noLicense = createTarGz([{ name: "kubectl-ptah", data: Buffer.from("x"), mode: 0o644 }]) as Buffer;
    const found = (validateArchive(p, noLicense) as string[]).join("\n");
    expect(found).toMatch(/LICENSE is not in the archive/u);
    expect(found).toMatch(/not executable/u);
    expect(found).toMatch(/kubectl_complete-ptah is not in the archive/u);
  });
});

// What needs more than this file: the manifest and archive `npm run build:binary` wrote, and krew's
// own tools (`node krew/krew-tools.mjs`: ~/.cache/kubectl-ptah/krew-bin, $PTAH_KREW_BIN_DIR, or
// PATH). Each test asks needTool() (test/support/machine-tools.ts): without them it is listed at the
// end of the run with the command that provides them, and fails under CI=true instead.
const onPath = (bin: string) => ({ ...process.env, PATH: [path.dirname(bin), process.env.PATH].join(path.delimiter) });
describe("dist/krew/ptah.yaml (from npm run build:binary)", () => {
  it("passes krew's rules and matches the archives in dist/release", (ctx) => {
    const built = needTool(ctx, "build:binary");
    const doc = yaml.load(fs.readFileSync(built, "utf8")) as Doc;
    expect(validateManifest(doc, { fileName: "ptah.yaml" })).toEqual([]);
    for (const p of doc.spec.platforms) {
      const archive = path.join(ROOT, "dist", "release", path.basename(p.uri));
      if (fs.existsSync(archive)) expect(validateArchive(p, fs.readFileSync(archive))).toEqual([]);
    }
  });
});

describe("krew's validate-krew-manifest", () => {
  it("accepts the rendered manifest", (ctx) => {
    const validator = needTool(ctx, "validate-krew-manifest");
    const { file } = renderAll();
    const r = spawnSync(validator, ["-manifest", file, "-skip-install"], { encoding: "utf8", env: onPath(validator) });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/structural validation OK/u);
    expect(r.stderr).toMatch(/no overlapping/u);
  });
});

describe("kubectl krew install --manifest --archive", () => {
  it.for((PLATFORMS as Platform[]).map((p) => [`${p.os}/${p.arch}`, p] as const))("installs on %s with LICENSE and the completion helper", ([, p], ctx) => {
    const krew = needTool(ctx, "krew");
    const { file } = renderAll();
    const root = fs.mkdtempSync(path.join(dir, "krew-root-"));
    const archive = path.join(releaseDir, archiveName(VERSION, p.os, p.arch) as string);
    const r = spawnSync("kubectl", ["krew", "install", `--manifest=${file}`, `--archive=${archive}`], {
      encoding: "utf8",
      input: "",
      env: { ...onPath(krew), KREW_ROOT: root, KREW_OS: p.os, KREW_ARCH: p.arch },
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const store = path.join(root, "store", "ptah", VERSION);
    expect(fs.readdirSync(store).sort()).toEqual([binaryName(p.os), completeHelperName(p.os), "LICENSE"].sort());
    expect(fs.existsSync(path.join(root, "bin", p.os === "windows" ? "kubectl-ptah.exe" : "kubectl-ptah"))).toBe(true);
  });
});

// The real thing: install this machine's built archive with krew, then run the plugin and its
// completion through kubectl from krew's folders.
describe("the built archive installed by krew", () => {
  it("runs as `kubectl ptah` and completes through kubectl_complete-ptah", (ctx) => {
    if (process.platform !== "linux" || process.arch !== "x64") ctx.skip(`krew's archive for linux/amd64 cannot run on ${process.platform}/${process.arch}`);
    const built = needTool(ctx, "build:binary");
    const krew = needTool(ctx, "krew");
    const doc = yaml.load(fs.readFileSync(built, "utf8")) as Doc;
    const host = doc.spec.platforms.find((p) => {
      const l = (p.selector as { matchLabels: Platform }).matchLabels;
      return l.os === "linux" && l.arch === "amd64";
    });
    expect(host, "the built manifest has no linux/amd64 platform").toBeDefined();
    const root = fs.mkdtempSync(path.join(dir, "krew-real-"));
    const archive = path.join(ROOT, "dist", "release", path.basename(host!.uri));
    const env = { ...onPath(krew), KREW_ROOT: root };
    const install = spawnSync("kubectl", ["krew", "install", `--manifest=${built}`, `--archive=${archive}`], { encoding: "utf8", input: "", env, timeout: 120_000 });
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).toContain("kubectl ptah completion kubectl");
    const store = path.join(root, "store", "ptah", doc.spec.version);
    const runEnv = { ...process.env, PATH: [path.join(root, "bin"), store, process.env.PATH].join(path.delimiter), KUBECONFIG: path.join(dir, "none") };
    const version = spawnSync("kubectl", ["ptah", "--version"], { encoding: "utf8", env: runEnv });
    expect(version).toMatchObject({ status: 0, stdout: `kubectl-ptah ${doc.spec.version}\n`, stderr: "" });
    const complete = spawnSync("kubectl", ["__complete", "ptah", "ex"], { encoding: "utf8", env: runEnv });
    expect(complete.status).toBe(0);
    expect(complete.stdout).toMatch(/^explain\t.*\n:4\n$/u);
  });
});
