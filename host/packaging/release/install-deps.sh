#!/usr/bin/env bash
# Installs the Debian packages the release build needs beyond the development build's: dpkg-dev
# (dpkg-source unpacks the pinned sources), perl (OpenSSL's Configure), unicode-data and
# python3-six (re2's generated tables), gnupg (signing), and the code generators, which run on
# this machine for every target.
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/../../../tests/setup/install-deps.sh" \
  cmake ninja-build dpkg-dev perl unicode-data python3-six python3-pip gnupg \
  protobuf-compiler protobuf-compiler-grpc
