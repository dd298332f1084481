#!/usr/bin/env bash
# The benchmark command: luaform, the same provider in Go with terraform-plugin-framework
# (./peer) and a bare gRPC echo server (the floor), measured in one run on this machine.
# Installs what is missing (apt packages, the pinned OpenTofu), builds luaform and the tools in
# Release mode (build-bench/), builds the Go peer from the Go module proxy (cached outside the
# repository), builds the linux_amd64 release host when the release dependency cache holds its
# libraries (the targets are then judged on it), then prints the table of tests/bench/README.md.
# Safe to run again.
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

# The release host (linux_amd64: static, musl), built by the release scripts from the release
# dependency cache, is what users run and what the targets are judged on; the development host
# runs beside it. Filling the cache is long one-time work of its own (about 15 minutes on 2
# cores), so a cold cache leaves the column out and says how to fill it.
source host/packaging/release/common.sh
release=()
if [[ -f "$(release_deps_dir linux_amd64)/.complete" ]]; then
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  bash host/packaging/release/build_release.sh --targets linux_amd64 --out "$scratch" \
    providers/localfs >&2
  release=(--release "$repo/build-release/linux_amd64/host/luaform")
else
  release=(--release-not-run "release cache cold; fill it once with: bash host/packaging/release/build_deps.sh linux_amd64")
fi

python3 tests/bench/bench.py --host build-bench/host/luaform --peer "$peer" \
  --echo build-bench/tests/bench/luaform_bench_echo \
  --client build-bench/tests/bench/luaform_bench_rpc --tofu "$tofu" "${release[@]}" "$@"
