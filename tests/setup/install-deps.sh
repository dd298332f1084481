#!/usr/bin/env bash
# Installs the Debian 12 packages luaform needs to build, lint and test, or, given package names,
# those (the release scripts name theirs). Idempotent: when every package is installed already
# (dpkg says so), apt is not touched at all.
# Go (needed once, to build the OpenTofu CLI) is not installed here: tests/e2e/install-tofu.sh
# checks for it and says how to get it.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build pkg-config ccache
  libgrpc++-dev protobuf-compiler protobuf-compiler-grpc libprotobuf-dev
  liblua5.4-dev lua5.4 libcurl4-openssl-dev libssl-dev
  nlohmann-json3-dev libmsgpack-cxx-dev doctest-dev
  # fuzzing (tests/fuzz/run.sh): clang with its sanitizer runtimes and libFuzzer
  # and the AddressSanitizer build (clang too); llvm gives its reports their source lines
  clang-14 libclang-rt-14-dev libfuzzer-14-dev llvm
  # lint and tests
  clang-format clang-tidy lua-check python3-pytest python3-pytest-xdist python3-venv openssl
  etcd-server
  # programs the e2e suite's providers drive through tf.exec (tests/e2e/test_programs.py), and
  # the Redis server and pure-Lua client of tests/e2e/test_redis_provider.py, and the
  # PostgreSQL server and psql of tests/e2e/test_postgresql_provider.py
  sqlite3 redis-server lua-redis postgresql-15 postgresql-client-15
  # the OAuth 2.0 gateway of tests/e2e/test_oauth2_client.py (support/oauth_gateway.py)
  apache2 libapache2-mod-auth-openidc
)
(($# > 0)) && packages=("$@")

missing=()
for p in "${packages[@]}"; do
  if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]]; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=()
if [[ "$(id -u)" != 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-deps: run as root (or install sudo) to: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
