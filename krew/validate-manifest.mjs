// Offline checks of a krew Plugin manifest, mirroring krew's own validation (the structural rules
// of its index validation, validate-krew-manifest's platform checks) and the krew-index review
// rules (krew's plugin manifest rules), plus this plugin's own (completion caveat). The real
// validate-krew-manifest runs in the release workflow; this runs everywhere.
//
//   node krew/validate-manifest.mjs dist/krew/ptah.yaml [--archives dist/release]
//
// With --archives, every platform whose archive is there is checked too: sha256 of the file,
// and that `bin`, LICENSE and the completion helper are in it.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import yaml from "js-yaml";
import { readTarGz } from "./tar.mjs";

export const API_VERSION = "krew.googlecontainertools.github.com/v1alpha2";
export const SHORT_DESCRIPTION_MAX = 50;
export const DESCRIPTION_COLUMNS = 80;

/** The os/arch pairs validate-krew-manifest accepts. */
export const SUPPORTED = {
  windows: ["386", "amd64", "arm64"],
  linux: ["386", "amd64", "arm", "arm64", "ppc64le"],
  darwin: ["386", "amd64", "arm64"],
};
const PAIRS = Object.entries(SUPPORTED).flatMap(([os, arches]) => arches.map((arch) => ({ os, arch })));

const RESERVED = new Set(["con", "prn", "aux", "nul", ...[1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((n) => [`com${n}`, `lpt${n}`])]);
const SEMVER =
  /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/u;
const SPEC_KEYS = new Set(["version", "homepage", "shortDescription", "description", "caveats", "platforms"]);
const PLATFORM_KEYS = new Set(["selector", "uri", "sha256", "files", "bin"]);
const LICENSE_FILE = /^(licen[cs]e|copying)(\.(txt|md))?$|^licenses?/iu;

/** Does the label selector match {os, arch}? */
export function selectorMatches(selector, labels) {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const values = e.values ?? [];
    if (e.operator === "In" && !(has && values.includes(labels[e.key]))) return false;
    if (e.operator === "NotIn" && has && values.includes(labels[e.key])) return false;
    if (e.operator === "Exists" && !has) return false;
    if (e.operator === "DoesNotExist" && has) return false;
  }
  return true;
}

/** A `files[].from` glob (krew uses filepath.Match: *, ?, [...]) as a RegExp. */
function globToRegExp(glob) {
  let source = "";
  for (const ch of glob) source += ch === "*" ? "[^/]*" : ch === "?" ? "[^/]" : /[.+^${}()|\\]/u.test(ch) ? `\\${ch}` : ch;
  return new RegExp(`^${source}$`, "u");
}

function isString(v) {
  return typeof v === "string";
}

/**
 * @param {unknown} doc the parsed manifest
 * @param {{ fileName?: string }} [options] the manifest's file name, to check it against the name
 * @returns {string[]} the problems found; empty when the manifest is valid
 */
export function validateManifest(doc, options = {}) {
  const errors = [];
  const err = (message) => errors.push(message);
  if (doc === null || typeof doc !== "object") return ["the manifest is not a YAML mapping"];
  if (doc.apiVersion !== API_VERSION) err(`apiVersion must be ${API_VERSION}, not ${JSON.stringify(doc.apiVersion)}`);
  if (doc.kind !== "Plugin") err(`kind must be Plugin, not ${JSON.stringify(doc.kind)}`);
  const name = doc.metadata?.name;
  if (!isString(name) || !/^[\w-]+$/u.test(name)) err(`metadata.name ${JSON.stringify(name)} must match ^[\\w-]+$`);
  else if (RESERVED.has(name.toLowerCase())) err(`metadata.name ${name} is a reserved Windows device name`);
  if (options.fileName !== undefined) {
    if (path.extname(options.fileName) !== ".yaml") err(`the file ${options.fileName} must have the .yaml extension`);
    else if (path.basename(options.fileName, ".yaml") !== name) err(`the file name ${options.fileName} must be <metadata.name>.yaml`);
  }
  const spec = doc.spec;
  if (spec === null || typeof spec !== "object") return [...errors, "spec is missing"];
  for (const key of Object.keys(spec)) if (!SPEC_KEYS.has(key)) err(`spec.${key} is not a krew field`);
  if (!isString(spec.version) || !SEMVER.test(spec.version)) err(`spec.version ${JSON.stringify(spec.version)} must be v + semver (e.g. v0.1.0)`);
  if (!isString(spec.homepage) || !/^https?:\/\/\S+$/u.test(spec.homepage)) err("spec.homepage must be an http(s) URL");
  const short = spec.shortDescription;
  if (!isString(short) || short.trim() === "") err("spec.shortDescription must not be empty");
  else {
    if (/[\r\n]/u.test(short)) err("spec.shortDescription must be one line");
    if (short.length > SHORT_DESCRIPTION_MAX) err(`spec.shortDescription is ${short.length} characters; at most ${SHORT_DESCRIPTION_MAX}`);
  }
  if (!isString(spec.description) || spec.description.trim() === "") err("spec.description must not be empty");
  else {
    spec.description.split("\n").forEach((line, i) => {
      if (line.length > DESCRIPTION_COLUMNS) err(`spec.description line ${i + 1} is wider than ${DESCRIPTION_COLUMNS} columns`);
      // No usage or flag lists: those belong in --help.
      if (/(^|\s)--?[A-Za-z]/u.test(line)) err(`spec.description line ${i + 1} lists a flag: ${line.trim()}`);
      if (/^\s*usage:/iu.test(line)) err(`spec.description line ${i + 1} is a usage line`);
    });
  }
  if (spec.caveats !== undefined && !isString(spec.caveats)) err("spec.caveats must be text");

  const platforms = spec.platforms;
  if (!Array.isArray(platforms) || platforms.length === 0) return [...errors, "spec.platforms must list at least one platform"];
  const covered = new Map();
  platforms.forEach((p, i) => {
    const at = `spec.platforms[${i}]`;
    if (p === null || typeof p !== "object") return err(`${at} is not a mapping`);
    for (const key of Object.keys(p)) if (!PLATFORM_KEYS.has(key)) err(`${at}.${key} is not a krew field`);
    if (!isString(p.uri) || p.uri === "") err(`${at}.uri is missing`);
    else if (!/\.(tar\.gz|zip)$/u.test(new URL(p.uri, "file:///").pathname)) err(`${at}.uri must be a .tar.gz or .zip archive`);
    if (!isString(p.sha256) || !/^[a-f0-9]{64}$/u.test(p.sha256)) err(`${at}.sha256 must be 64 lowercase hex digits, not ${JSON.stringify(p.sha256)}`);
    if (!isString(p.bin) || p.bin === "") err(`${at}.bin is missing`);
    if (p.files !== undefined) {
      if (!Array.isArray(p.files) || p.files.length === 0) err(`${at}.files must be left out or list entries (an empty list copies nothing)`);
      else {
        p.files.forEach((f, j) => {
          if (!isString(f?.from) || f.from === "") err(`${at}.files[${j}].from is empty`);
          if (!isString(f?.to) || f.to === "") err(`${at}.files[${j}].to is empty`);
        });
        // validate-krew-manifest fails unless a LICENSE-like file ends up installed.
        const copiesLicense = p.files.some((f) => isString(f?.from) && ["LICENSE", "LICENSE.txt", "LICENSE.md", "COPYING"].some((l) => globToRegExp(f.from).test(l)));
        if (!copiesLicense) err(`${at}.files copy no LICENSE file`);
        if (isString(p.bin) && !p.files.some((f) => isString(f?.from) && globToRegExp(f.from).test(p.bin))) err(`${at}.files do not copy the bin ${p.bin}`);
      }
    }
    const selector = p.selector;
    if (selector === null || typeof selector !== "object" || (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0)) {
      return err(`${at}.selector must not be empty`);
    }
    for (const key of Object.keys(selector)) if (key !== "matchLabels" && key !== "matchExpressions") err(`${at}.selector.${key} is not a label selector field`);
    const keys = [...Object.keys(selector.matchLabels ?? {}), ...(selector.matchExpressions ?? []).map((e) => e?.key)];
    for (const key of keys) if (key !== "os" && key !== "arch") err(`${at}.selector uses the key ${JSON.stringify(key)}; only os and arch are allowed`);
    const matched = PAIRS.filter((pair) => selectorMatches(selector, pair));
    if (matched.length === 0) err(`${at}.selector matches no supported os/arch`);
    for (const pair of matched) {
      const key = `${pair.os}/${pair.arch}`;
      if (covered.has(key)) err(`${at}.selector overlaps spec.platforms[${covered.get(key)}] on ${key}`);
      else covered.set(key, i);
    }
    if (p.bin && selectorMatches(selector, { os: "windows", arch: "amd64" }) && !String(p.bin).endsWith(".exe")) err(`${at}.bin must be an .exe on windows`);
  });
  return errors;
}

/** The os/arch pairs each platform of a valid manifest installs on. */
export function coveredPairs(doc) {
  return doc.spec.platforms.map((p) => PAIRS.filter((pair) => selectorMatches(p.selector, pair)).map((pair) => `${pair.os}/${pair.arch}`));
}

/**
 * Checks a platform entry against its archive: the sha256, and that the files to copy, the bin,
 * LICENSE and the completion helper are inside.
 */
export function validateArchive(platform, archive) {
  const errors = [];
  const sum = createHash("sha256").update(archive).digest("hex");
  if (sum !== platform.sha256) errors.push(`sha256 of the archive is ${sum}, the manifest says ${platform.sha256}`);
  const entries = readTarGz(archive);
  const names = entries.map((e) => e.name);
  for (const f of platform.files ?? []) if (!names.some((n) => globToRegExp(f.from).test(n))) errors.push(`files: nothing in the archive matches ${f.from}`);
  const bin = entries.find((e) => e.name === platform.bin);
  if (!bin) errors.push(`the bin ${platform.bin} is not in the archive`);
  else if (!platform.bin.endsWith(".exe") && (bin.mode & 0o111) === 0) errors.push(`the bin ${platform.bin} is not executable`);
  if (!names.includes("LICENSE")) errors.push("LICENSE is not in the archive");
  if (!names.some((n) => /^kubectl_complete-ptah(\.cmd)?$/u.test(n))) errors.push("kubectl_complete-ptah is not in the archive");
  return errors;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) {
    process.stderr.write("usage: node krew/validate-manifest.mjs MANIFEST [--archives DIR]\n");
    process.exit(2);
  }
  const doc = yaml.load(readFileSync(file, "utf8"));
  const errors = validateManifest(doc, { fileName: path.basename(file) });
  const dirIndex = rest.indexOf("--archives");
  if (dirIndex >= 0 && errors.length === 0) {
    const dir = rest[dirIndex + 1];
    for (const p of doc.spec.platforms) {
      const archive = path.join(dir, path.posix.basename(new URL(p.uri).pathname));
      if (!existsSync(archive)) continue;
      for (const e of validateArchive(p, readFileSync(archive))) errors.push(`${path.basename(archive)}: ${e}`);
    }
  }
  if (errors.length > 0) {
    process.stderr.write(`${file}: invalid krew manifest:\n${errors.map((e) => `  - ${e}`).join("\n")}\n`);
    process.exit(1);
  }
  process.stdout.write(`${file}: valid (${coveredPairs(doc).flat().join(", ")})\n`);
}
