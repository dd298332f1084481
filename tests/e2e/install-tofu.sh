#!/usr/bin/env bash
# Builds the pinned OpenTofu CLI from the Go module proxy and caches it outside
# the repository, keyed by version. Prints the binary's path on stdout.
#
# OpenTofu >= 1.7 carries a `replace` for hcl in its go.mod, which `go install
# pkg@version` refuses, so we build through a throwaway wrapper module that
# requires opentofu and repeats the replace.
#
# TOFU_TARGET=OS_ARCH (linux_arm64, windows_amd64, ...) cross-builds the CLI for another
# platform instead, cached beside the native one, for the release tests of that platform.
set -euo pipefail

TOFU_VERSION="${TOFU_VERSION:-v1.12.6}"
# The replace target OpenTofu's own go.mod names at that release.
HCL_REPLACE="github.com/opentofu/hcl/v2@v2.20.2-0.20251021132045-587d123c2828"

cache_root="${LUAFORM_CACHE:-$HOME/.cache/luaform}"
dest="$cache_root/tofu/$TOFU_VERSION"
bin="$dest/tofu"
target="${TOFU_TARGET:-}"
if [[ -n "$target" ]]; then
  [[ "$target" =~ ^(linux|darwin|windows|freebsd)_(amd64|arm64)$ ]] ||
    { echo "install-tofu: TOFU_TARGET=$target is not an OS_ARCH such as linux_arm64" >&2; exit 1; }
  dest="$dest/$target"
  bin="$dest/tofu"
  [[ "$target" == windows_* ]] && bin="$bin.exe"
  # Another platform's binary may not run here: its presence is the cache.
  if [[ -s "$bin" ]]; then
    echo "$bin"
    exit 0
  fi
elif [[ -x "$bin" ]] && "$bin" version >/dev/null 2>&1; then
  echo "$bin"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  {
    echo "install-tofu: 'go' is not on PATH; it is needed once, to build OpenTofu $TOFU_VERSION."
    echo "  Install Go >= 1.21 (https://go.dev/doc/install, or Debian bookworm-backports'"
    echo "  golang-1.2x package) and put its bin/ on PATH; an older Go downloads the toolchain"
    echo "  OpenTofu needs (>= 1.26.6) from the Go module proxy by itself."
  } >&2
  exit 1
fi

# OpenTofu v1.12 needs Go >= 1.26.6. An older Go (>= 1.21) can fetch that toolchain itself
# from the Go module proxy (module golang.org/toolchain); anything older cannot.
go_version="$(go env GOVERSION 2>/dev/null || true)"
go_version="${go_version#go}"
toolchain=local
if [[ "$(printf '%s\n' "$go_version" 1.26.6 | sort -V | head -1)" != 1.26.6 ]]; then
  if [[ "$(printf '%s\n' "$go_version" 1.21 | sort -V | head -1)" == 1.21 ]]; then
    toolchain=go1.26.8
    echo "install-tofu: Go $go_version is too old for OpenTofu $TOFU_VERSION; using $toolchain" >&2
  else
    echo "install-tofu: Go ${go_version:-?} is too old; OpenTofu $TOFU_VERSION needs Go >= 1.26.6" >&2
    exit 1
  fi
fi

export GOTOOLCHAIN="$toolchain" CGO_ENABLED=0 GOFLAGS=-mod=mod
if [[ -n "$target" ]]; then
  export GOOS="${target%_*}" GOARCH="${target#*_}"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
{
  go mod init luaform.local/tofuwrap
  go mod edit -replace "github.com/hashicorp/hcl/v2@v2.20.1=$HCL_REPLACE"
  go get "github.com/opentofu/opentofu/cmd/tofu@$TOFU_VERSION"
  mkdir -p "$dest"
  go build -trimpath \
    -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" \
    -o "$bin.tmp" github.com/opentofu/opentofu/cmd/tofu
} >&2
mv "$bin.tmp" "$bin"
echo "$bin"
