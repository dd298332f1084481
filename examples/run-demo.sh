#!/usr/bin/env bash
# The demo: builds the luaform host, assembles providers/localfs into a runnable provider
# directory, and runs examples/localfs with the real OpenTofu CLI: apply, outputs, then a plan
# that must show no changes. Safe to run again: the build is incremental, the CLI is cached, and
# the scratch working directory keeps its state, so a second run changes nothing.
#
# Environment: LUAFORM_BUILD (build directory, default build-release), LUAFORM_CACHE (where the
# OpenTofu CLI is cached, default ~/.cache/luaform).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${LUAFORM_BUILD:-$repo/build-release}"
demo="$build/demo"

say() { printf '\n==> %s\n' "$*"; }

say "Installing build dependencies (skipped when present)"
bash "$repo/tests/setup/install-deps.sh"

say "Building the luaform host (Release) in $build"
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLUAFORM_TESTS=OFF \
  >/dev/null
cmake --build "$build" -j2 --target luaform

say "Getting OpenTofu (built once from the Go module proxy, then cached)"
tofu="$(bash "$repo/tests/e2e/install-tofu.sh")"
"$tofu" version 2>/dev/null | grep "^OpenTofu v" || true  # grep reads everything: no SIGPIPE

provider="$demo/provider"
say "Assembling the localfs provider in $provider"
rm -rf "$provider"
mkdir -p "$provider"
cp -r "$repo/providers/localfs/." "$provider/"
rm -f "$provider/README.md"
cp "$build/host/luaform" "$provider/terraform-provider-localfs"
"$provider/terraform-provider-localfs" --check

cat >"$demo/cli.tfrc" <<CFG
provider_installation {
  dev_overrides {
    "registry.opentofu.org/luaform/localfs" = "$provider"
  }
}
CFG
export TF_CLI_CONFIG_FILE="$demo/cli.tfrc" TF_IN_AUTOMATION=1 TF_INPUT=0 CHECKPOINT_DISABLE=1
"$tofu" version

# A scratch copy of the example; its state file survives between runs.
work="$demo/work"
mkdir -p "$work/out"
cp "$repo/examples/localfs/main.tf" "$work/main.tf"
cd "$work"

say "tofu apply (in $work; no init needed with dev_overrides)"
"$tofu" apply -auto-approve -input=false

say "tofu output"
"$tofu" output

say "Files written by the provider"
for f in out/greeting.txt out/inventory.txt; do
  echo "--- $f"
  cat "$f"
done

say "tofu plan -detailed-exitcode (must report no changes)"
code=0
"$tofu" plan -input=false -detailed-exitcode || code=$?
if ((code != 0)); then
  echo "demo: plan after apply exited $code; expected 0 (no changes)" >&2
  exit 1
fi
say "Done: the plan after apply is empty. State and files live in $work."
