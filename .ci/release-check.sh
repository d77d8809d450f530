#!/usr/bin/env bash
# The release job's krew checks (.github/workflows/release.yml runs this too, so CI and the
# release cannot drift): our rules and the archives' sha256/layout, krew's validate-krew-manifest,
# `kubectl krew install --manifest --archive` for each platform given (os/arch; default: every
# platform of krew/platforms.mjs), then the linux/amd64 install run as `kubectl ptah --version`
# when that archive is here. Needs dist/krew/ptah.yaml and the archives in dist/release
# (npm run build:binary, or the release's six), and Go for krew's tools (krew/krew-tools.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(node -p 'require("./package.json").version')"
tag="${PTAH_VERSION:-v$version}"
node krew/validate-manifest.mjs dist/krew/ptah.yaml --archives dist/release
tools="$(node krew/krew-tools.mjs)"
export PATH="$tools:$PATH"
validate-krew-manifest -manifest dist/krew/ptah.yaml -skip-install
platforms=("$@")
if [ "${#platforms[@]}" -eq 0 ]; then
  mapfile -t platforms < <(node krew/platforms.mjs --json | node -e 'for (const p of JSON.parse(require("fs").readFileSync(0, "utf8"))) console.log(`${p.os}/${p.arch}`)')
fi
for platform in "${platforms[@]}"; do
  os="${platform%/*}"; arch="${platform#*/}"
  root="$(mktemp -d)"
  KREW_ROOT="$root" KREW_OS="$os" KREW_ARCH="$arch" kubectl krew install --manifest=dist/krew/ptah.yaml \
    --archive="dist/release/kubectl-ptah_${tag}_${os}_${arch}.tar.gz" </dev/null
  ls "$root/store/ptah/$tag"
  if [ "$platform" = linux/amd64 ] && [ "$(uname -s)/$(uname -m)" = Linux/x86_64 ]; then
    PATH="$root/bin:$PATH" kubectl ptah --version
  fi
  rm -rf "$root"
done
echo "release check: manifest valid, installed by krew on ${platforms[*]}"
