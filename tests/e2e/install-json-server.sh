#!/usr/bin/env bash
# Installs json-server (a REST API over a JSON file, from the npm registry) at a pinned version
# and caches it outside the repository. Prints the path of its executable on stdout. The
# restapi provider's tests run against it: a real REST server that nobody here wrote.
set -euo pipefail

JSON_SERVER_VERSION="${JSON_SERVER_VERSION:-0.17.4}"
dest="$(bash "$(dirname "$0")/install-npm-package.sh" json-server "$JSON_SERVER_VERSION")"
echo "$dest/node_modules/.bin/json-server"
