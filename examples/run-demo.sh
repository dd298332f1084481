#!/usr/bin/env bash
# The demo: builds the luaform host, assembles providers/NAME into a runnable provider
# directory, and runs examples/NAME with the real OpenTofu CLI: apply, outputs, then a plan
# that must show no changes. Safe to run again: the build is incremental, the CLI is cached, and
# the scratch working directory keeps its state, so a second run changes nothing.
#
#   bash examples/run-demo.sh            # NAME = localfs: files on the local disk
#   bash examples/run-demo.sh restapi    # a JSON API: json-server (npm) is started on loopback
#                                        # unless RESTAPI_URI names an API to use
#   bash examples/run-demo.sh etcd       # keys in etcd: Debian's etcd-server is started on
#                                        # loopback unless ETCD_ENDPOINT names a cluster
#
# Environment: LUAFORM_BUILD (build directory, default build-demo: CMakePresets.json's "demo"), LUAFORM_CACHE (where the
# OpenTofu CLI and json-server are cached, default ~/.cache/luaform).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
name="${1:-localfs}"
if [[ ! -d "$repo/providers/$name" || ! -f "$repo/examples/$name/main.tf" ]]; then
  echo "run-demo: no provider '$name' (providers/NAME and examples/NAME/main.tf)" >&2
  exit 1
fi
build="${LUAFORM_BUILD:-$repo/build-demo}"
demo="$build/demo/$name"

say() { printf '\n==> %s\n' "$*"; }

say "Installing build dependencies (skipped when present)"
bash "$repo/tests/setup/install-deps.sh"

say "Building the luaform host (Release) in $build"
cmake -S "$repo" --preset demo -B "$build" >/dev/null
cmake --build "$build" -j2 --target luaform

say "Getting OpenTofu (built once from the Go module proxy, then cached)"
tofu="$(bash "$repo/tests/e2e/install-tofu.sh")"
"$tofu" version 2>/dev/null | grep "^OpenTofu v" || true  # grep reads everything: no SIGPIPE

provider="$demo/provider"
say "Assembling the $name provider in $provider"
rm -rf "$provider"
mkdir -p "$provider"
cp -r "$repo/providers/$name/." "$provider/"
rm -f "$provider/README.md"
cp "$build/host/luaform" "$provider/terraform-provider-$name"
"$provider/terraform-provider-$name" --check

cat >"$demo/cli.tfrc" <<CFG
provider_installation {
  dev_overrides {
    "registry.opentofu.org/luaform/$name" = "$provider"
  }
}
CFG
export TF_CLI_CONFIG_FILE="$demo/cli.tfrc" TF_IN_AUTOMATION=1 TF_INPUT=0 CHECKPOINT_DISABLE=1
"$tofu" version

# A scratch copy of the example; its state file survives between runs.
work="$demo/work"
mkdir -p "$work/out"
cp "$repo/examples/$name/main.tf" "$work/main.tf"
cd "$work"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Runs "$@" in the background (output in $demo/server.log) until the demo ends, and waits until
# `url` answers.
serve_until_exit() {
  local url="$1"
  shift
  "$@" >"$demo/server.log" 2>&1 &
  server_pid=$!
  trap 'kill "$server_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 100); do
    curl -sf "$url" >/dev/null && return 0
    sleep 0.1
  done
  echo "run-demo: the server did not answer at $url (see $demo/server.log)" >&2
  exit 1
}

if [[ "$name" == restapi && -z "${RESTAPI_URI:-}" ]]; then
  say "Starting json-server (a REST API over $demo/db.json) on loopback"
  json_server="$(bash "$repo/tests/e2e/install-json-server.sh")"
  [[ -f "$demo/db.json" ]] || echo '{"posts": []}' >"$demo/db.json"
  port="$(free_port)"
  serve_until_exit "http://127.0.0.1:$port/db" \
    "$json_server" --host 127.0.0.1 --port "$port" --quiet "$demo/db.json"
  export RESTAPI_URI="http://127.0.0.1:$port"
fi

if [[ "$name" == etcd && -z "${ETCD_ENDPOINT:-}" ]]; then
  say "Starting etcd (data in $demo/etcd-data) on loopback"
  client="http://127.0.0.1:$(free_port)" peer="http://127.0.0.1:$(free_port)"
  serve_until_exit "$client/health" \
    etcd --data-dir "$demo/etcd-data" --listen-client-urls "$client" \
    --advertise-client-urls "$client" --listen-peer-urls "$peer" \
    --initial-advertise-peer-urls "$peer" --initial-cluster "default=$peer"
  export ETCD_ENDPOINT="$client"
fi

say "tofu apply (in $work; no init needed with dev_overrides)"
"$tofu" apply -auto-approve -input=false

say "tofu output"
"$tofu" output

if [[ "$name" == localfs ]]; then
  say "Files written by the provider"
  for f in out/greeting.txt out/inventory.txt out/reports/summary.txt; do
    echo "--- $f ($(stat -c %A "$f"))"
    cat "$f"
  done
fi

say "tofu plan -detailed-exitcode (must report no changes)"
code=0
"$tofu" plan -input=false -detailed-exitcode || code=$?
if ((code != 0)); then
  echo "demo: plan after apply exited $code; expected 0 (no changes)" >&2
  exit 1
fi
say "Done: the plan after apply is empty. State and files live in $work."
