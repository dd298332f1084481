#!/usr/bin/env bash
# Builds the pinned OpenTofu CLI from the Go module proxy and caches it outside
# the repository, keyed by version. Prints the binary's path on stdout.
#
# OpenTofu >= 1.7 carries a `replace` for hcl in its go.mod, which `go install
# pkg@version` refuses, so we build through a throwaway wrapper module that
# requires opentofu and repeats the replace.
set -euo pipefail

TOFU_VERSION="${TOFU_VERSION:-v1.12.6}"
# The replace target OpenTofu's own go.mod names at that release.
HCL_REPLACE="github.com/opentofu/hcl/v2@v2.20.2-0.20251021132045-587d123c2828"

cache_root="${LUAFORM_CACHE:-$HOME/.cache/luaform}"
dest="$cache_root/tofu/$TOFU_VERSION"
bin="$dest/tofu"

if [[ -x "$bin" ]] && "$bin" version >/dev/null 2>&1; then
  echo "$bin"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  echo "install-tofu: 'go' not found; install Go >= 1.26.6 (Debian: golang-go is too old; use the Go toolchain)" >&2
  exit 1
fi

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
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
