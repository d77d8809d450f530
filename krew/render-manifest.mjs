// Renders plugin-manifest/ptah.yaml — the krew-release-bot template, the single source of the
// manifest text — into a concrete krew manifest for archives on disk.
//
// The template uses the bot's two forms: `{{ .TagName }}`, and on each platform
// `{{addURIAndSha "URL" .TagName }}`, which becomes `uri: URL` + `sha256: <lowercase hex of the
// archive>`. Here the sha256 comes from the archive of the same file name in --release-dir
// instead of a download. The template's repository URL (https://github.com/OWNER/kubectl-ptah)
// is replaced by --repository, else by $GITHUB_SERVER_URL/$GITHUB_REPOSITORY (in GitHub Actions).
//
//   node krew/render-manifest.mjs [--release-dir dist/release] [--out dist/krew/ptah.yaml]
//                                 [--version vX.Y.Z] [--repository URL] [--all]
//
// Without --all, platforms whose archive is missing are left out (a local build has one);
// with --all (the release workflow) a missing archive is an error.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import yaml from "js-yaml";
import { releaseVersion } from "./platforms.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const TEMPLATE = path.join(ROOT, "plugin-manifest", "ptah.yaml");
export const TEMPLATE_REPOSITORY = "https://github.com/OWNER/kubectl-ptah";

const TAG = /\{\{\s*\.TagName\s*\}\}/gu;
const URI_AND_SHA = /^([ \t]*)\{\{\s*addURIAndSha\s+"([^"]+)"\s+\.TagName\s*\}\}[ \t]*$/gmu;

/**
 * @param {string} template the template text
 * @param {{ version: string, repository?: string, sha256For: (uri: string) => string | undefined, onlyAvailable?: boolean }} options
 * @returns {{ text: string, platforms: string[], missing: string[] }}
 */
export function renderManifest(template, options) {
  const missing = [];
  let text = template.replace(URI_AND_SHA, (_all, indent, uri) => {
    const url = uri.replace(TAG, options.version).replaceAll(TEMPLATE_REPOSITORY, options.repository ?? TEMPLATE_REPOSITORY);
    const sum = options.sha256For(url);
    if (sum === undefined) missing.push(url);
    return `${indent}uri: ${url}\n${indent}sha256: ${sum ?? "MISSING"}`;
  });
  text = text.replace(TAG, options.version).replaceAll(TEMPLATE_REPOSITORY, options.repository ?? TEMPLATE_REPOSITORY);
  if (missing.length > 0) {
    if (!options.onlyAvailable) throw new Error(`no archive for:\n  ${missing.join("\n  ")}`);
    const doc = yaml.load(text);
    doc.spec.platforms = doc.spec.platforms.filter((p) => p.sha256 !== "MISSING");
    if (doc.spec.platforms.length === 0) throw new Error("no archive for any platform");
    text = yaml.dump(doc, { lineWidth: -1, noRefs: true });
  }
  const doc = yaml.load(text);
  const platforms = doc.spec.platforms.map((p) => `${p.selector.matchLabels.os}/${p.selector.matchLabels.arch}`);
  return { text, platforms, missing };
}

export function sha256File(file) {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** Renders the template for the archives in releaseDir and writes `out`. */
export function renderManifestFile({ releaseDir, out, version = releaseVersion(), repository = defaultRepository(), onlyAvailable = true, template = TEMPLATE }) {
  const rendered = renderManifest(readFileSync(template, "utf8"), {
    version,
    repository,
    onlyAvailable,
    sha256For: (uri) => {
      const file = path.join(releaseDir, path.posix.basename(new URL(uri).pathname));
      return existsSync(file) ? sha256File(file) : undefined;
    },
  });
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, rendered.text);
  return rendered;
}

function defaultRepository() {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo } = process.env;
  return server && repo ? `${server}/${repo}` : undefined;
}

function option(argv, name) {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const releaseDir = path.resolve(option(argv, "--release-dir") ?? path.join(ROOT, "dist", "release"));
  const out = path.resolve(option(argv, "--out") ?? path.join(ROOT, "dist", "krew", "ptah.yaml"));
  try {
    const rendered = renderManifestFile({
      releaseDir,
      out,
      version: option(argv, "--version") ?? releaseVersion(),
      repository: option(argv, "--repository") ?? defaultRepository(),
      onlyAvailable: !argv.includes("--all"),
    });
    process.stdout.write(`${path.relative(process.cwd(), out)}: ${rendered.platforms.join(", ")}\n`);
  } catch (err) {
    process.stderr.write(`render-manifest: ${err.message}\n`);
    process.exit(1);
  }
}
