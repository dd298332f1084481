#!/usr/bin/env bash
# Unpacks the Terraform 1.16 build the team keeps beside the repository (../shared/cli: built
# from Terraform's source at v1.16.0-rc2 with experiments allowed, for protocol 6.11, deferral
# and state stores; no registry serves a Terraform newer than 1.15) into the cache, checked
# against its sums, and prints the binary's path on stdout.
#
# LUAFORM_SHARED_CLI=DIR  where the build is (default: ../shared/cli from the repository).
# A clone without it exits 3 saying so: tests/run.sh then reports the stage as not run.
set -euo pipefail

VERSION="1.16.0-rc2"
ARCHIVE="terraform_${VERSION}_experiments_linux_amd64.xz"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
shared="${LUAFORM_SHARED_CLI:-$repo/../shared/cli}"
cache_root="${LUAFORM_CACHE:-$HOME/.cache/luaform}"
dest="$cache_root/terraform/$VERSION-experiments"
bin="$dest/terraform"

if [[ ! -f "$shared/$ARCHIVE" || ! -f "$shared/SHA256SUMS" ]]; then
  echo "install-terraform116: no Terraform 1.16 build at $shared/$ARCHIVE" \
    "(tests/README.md says how to make one)" >&2
  exit 3
fi
expected="$(awk '$2 == "terraform" { print $1 }' "$shared/SHA256SUMS")"
if [[ -x "$bin" ]] && [[ "$(sha256sum "$bin" | cut -d' ' -f1)" == "$expected" ]]; then
  echo "$bin"
  exit 0
fi
(cd "$shared" && grep " $ARCHIVE\$" SHA256SUMS | sha256sum --check --quiet) || {
  echo "install-terraform116: $shared/$ARCHIVE does not match its sum in SHA256SUMS" >&2
  exit 1
}
mkdir -p "$dest"
xz -dc "$shared/$ARCHIVE" > "$bin.new"
if [[ "$(sha256sum "$bin.new" | cut -d' ' -f1)" != "$expected" ]]; then
  rm -f "$bin.new"
  echo "install-terraform116: the unpacked CLI does not match its sum in SHA256SUMS" >&2
  exit 1
fi
chmod +x "$bin.new"
mv -f "$bin.new" "$bin"
echo "$bin"
