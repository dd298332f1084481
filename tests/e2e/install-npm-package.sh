#!/usr/bin/env bash
# Installs one npm package at a pinned version into a cache outside the repository and prints
# the directory it is installed under (its node_modules is there). The e2e suite's real servers
# from the npm registry come this way: json-server, and oidc-provider (an OAuth 2.0
# authorisation server). Usage: install-npm-package.sh NAME VERSION
#
# The suite's workers ask at once on a fresh machine: one installs, under a lock, into a
# directory of its own that it then renames into place; the others wait and find it there (two
# npm installs into one directory fail with ENOTEMPTY).
set -euo pipefail

name="$1"
version="$2"
cache_root="${LUAFORM_CACHE:-$HOME/.cache/luaform}"
dest="$cache_root/npm/$name/$version"

installed() {
  [[ -f "$dest/node_modules/$name/package.json" ]] && command -v node >/dev/null 2>&1
}

if installed; then
  echo "$dest"
  exit 0
fi

mkdir -p "$cache_root/npm/$name"
exec 9>"$cache_root/npm/$name/$version.lock"
flock 9
if installed; then
  echo "$dest"
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "install-npm-package: npm is missing; installing Debian's nodejs and npm" >&2
  sudo=()
  if [[ "$(id -u)" != 0 ]]; then sudo=(sudo); fi
  if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
      install -y --no-install-recommends nodejs npm >&2; then
    echo "install-npm-package: could not install nodejs and npm (apt-get install nodejs npm)" >&2
    exit 1
  fi
fi

partial="$(mktemp -d "$cache_root/npm/$name/.$version.XXXXXX")"
trap 'rm -rf "$partial"' EXIT
if ! npm install --no-audit --no-fund --loglevel=error --prefix "$partial" "$name@$version" >&2
then
  echo "install-npm-package: npm install $name@$version failed (it needs the npm registry)" >&2
  exit 1
fi
rm -rf "$dest"
mv "$partial" "$dest"
echo "$dest"
