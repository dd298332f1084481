#!/usr/bin/env bash
# The benchmark command: luaform, the same provider in Go with terraform-plugin-framework
# (./peer) and a bare gRPC echo server (the floor), measured in one run on this machine.
# Installs what is missing (apt packages, the pinned OpenTofu), builds luaform and the tools in
# Release mode (build-bench/), builds the Go peer from the Go module proxy (cached outside the
# repository), then prints the table of tests/bench/README.md. Safe to run again.
#
#   tests/bench/run.sh                 every scenario at full size (about half an hour)
#   tests/bench/run.sh --quick         small sizes, to try the harness (a few minutes)
#   tests/bench/run.sh --only 2,6      some scenarios
#   tests/bench/run.sh --json out.json also write the raw figures
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
cache_root="${LUAFORM_CACHE:-$HOME/.cache/luaform}"

bash tests/setup/install-deps.sh >&2
tofu="$(bash tests/e2e/install-tofu.sh)"

cmake -S "$repo" --preset bench >&2
cmake --build build-bench -j2 --target luaform luaform_bench_rpc luaform_bench_echo >&2

if ! command -v go >/dev/null 2>&1; then
  echo "run.sh: 'go' is not on PATH; it builds the Go peer provider (tests/bench/peer)." >&2
  echo "  Install Go >= 1.23 and put its bin/ on PATH." >&2
  exit 1
fi
peer="$cache_root/bench-peer/terraform-provider-bench"
(cd tests/bench/peer && go build -trimpath -o "$peer" .) >&2

exec python3 tests/bench/bench.py --host build-bench/host/luaform --peer "$peer" \
  --echo build-bench/tests/bench/luaform_bench_echo \
  --client build-bench/tests/bench/luaform_bench_rpc --tofu "$tofu" "$@"
