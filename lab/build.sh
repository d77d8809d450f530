#!/usr/bin/env bash
# Builds kube-apiserver and etcd from the Go module proxy into a version-keyed cache
# outside the repository. Idempotent: a complete cache entry is reused as is.
# Usage: lab/build.sh            (prints the cache folder on the last line of stdout)
# Env:   PTAH_LAB_K8S (default 1.33.13), PTAH_LAB_ETCD (default 3.6.16), XDG_CACHE_HOME
set -euo pipefail
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
K8S="${PTAH_LAB_K8S:-1.33.13}"
ETCD="${PTAH_LAB_ETCD:-3.6.16}"
MINOR=$(echo "$K8S" | cut -d. -f2)
BIN="${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-ptah/lab-bin/k8s-$K8S-etcd-$ETCD"
mkdir -p "$BIN"
step() { printf '[lab build] %s\n' "$*" >&2; }

command -v go >/dev/null || { echo "error: go is not on PATH (the lab needs Go >= 1.26 and the Go module proxy)" >&2; exit 1; }

if [ ! -x "$BIN/kube-apiserver" ]; then
  W=$(mktemp -d)
  trap 'rm -rf "$W"' EXIT
  (
    cd "$W"
    step "kube-apiserver $K8S: resolving modules (first time: a few minutes)"
    go mod init example.invalid/kubebins >/dev/null 2>&1
    DL=$(go mod download -json "k8s.io/kubernetes@v$K8S" 2>&1) || {
      echo "error: could not download k8s.io/kubernetes@v$K8S from the Go module proxy:" >&2
      printf '%s\n' "$DL" >&2
      exit 1
    }
    GOMOD=$(printf '%s\n' "$DL" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')
    [ -f "$GOMOD" ] || { echo "error: could not download k8s.io/kubernetes@v$K8S" >&2; exit 1; }
    for m in $(awk '$1 ~ /^k8s\.io\// && $2 == "v0.0.0" {print $1}' "$GOMOD" | sort -u); do
      go mod edit "-replace=$m=$m@v0.${K8S#1.}"
    done
    go get "k8s.io/kubernetes@v$K8S" >&2
    cat > tools.go <<'GO'
//go:build tools

package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
GO
    go mod tidy >&2 || true
    step "kube-apiserver $K8S: compiling (first time: 10-20 minutes on 2 cores)"
    V="-X k8s.io/component-base/version.gitVersion=v$K8S -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$MINOR"
    go build -trimpath -ldflags "-s -w $V" -o "$BIN/kube-apiserver.tmp" k8s.io/kubernetes/cmd/kube-apiserver
    mv "$BIN/kube-apiserver.tmp" "$BIN/kube-apiserver"
  )
  rm -rf "$W"; trap - EXIT
fi

if [ ! -x "$BIN/etcd" ]; then
  W=$(mktemp -d)
  trap 'rm -rf "$W"' EXIT
  (
    cd "$W"
    step "etcd $ETCD: resolving and compiling (first time: 2-4 minutes)"
    go mod init example.invalid/etcdbin >/dev/null 2>&1
    go get "go.etcd.io/etcd/server/v3@v$ETCD" >&2
    go build -trimpath -ldflags '-s -w' -o "$BIN/etcd.tmp" go.etcd.io/etcd/server/v3
    mv "$BIN/etcd.tmp" "$BIN/etcd"
  )
  rm -rf "$W"; trap - EXIT
fi
step "binaries ready in $BIN"
echo "$BIN"
