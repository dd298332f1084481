#!/usr/bin/env bash
# Installs json-server (a REST API over a JSON file, from the npm registry) at a pinned version
# and caches it outside the repository. Prints the path of its executable on stdout. The
# restapi provider's tests run against it: a real REST server that nobody here wrote.
set -euo pipefail

JSON_SERVER_VERSION="${JSON_SERVER_VERSION:-0.17.4}"
cache_root="${LUAFORM_CACHE:-$HOME/.cache/luaform}"
dest="$cache_root/json-server/$JSON_SERVER_VERSION"
bin="$dest/node_modules/.bin/json-server"

if [[ -x "$bin" ]] && command -v node >/dev/null 2>&1; then
  echo "$bin"
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "install-json-server: npm is missing; installing Debian's nodejs and npm" >&2
  sudo=()
  if [[ "$(id -u)" != 0 ]]; then sudo=(sudo); fi
  if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y \
      --no-install-recommends nodejs npm >&2; then
    echo "install-json-server: could not install nodejs and npm (apt-get install nodejs npm)" >&2
    exit 1
  fi
fi

mkdir -p "$dest"
if ! npm install --no-audit --no-fund --loglevel=error --prefix "$dest" \
    "json-server@$JSON_SERVER_VERSION" >&2; then
  echo "install-json-server: npm install json-server@$JSON_SERVER_VERSION failed" \
       "(it needs the npm registry)" >&2
  exit 1
fi
echo "$bin"
