#!/usr/bin/env bash
# The release command: builds the host for every target that builds here, from pinned sources,
# and packages each provider directory into the registry's release set.
#
#   host/packaging/release/build_release.sh [--version 1.2.3] [--out dist] [--gpg-key KEY]
#       [--targets "linux_amd64 ..."] PROVIDER_DIR...   (default: every target, common.sh's list)
#
# For each target: its dependencies (build_deps.sh; cached, so only the first release pays),
# the host (host/release_libraries.cmake links them all in), and one zip per provider. Then per
# provider: the manifest, the SHA256SUMS over every zip and the manifest, and, with --gpg-key,
# the binary detached signature. Prints one line per target as it goes and, at the end, every
# file it wrote. The hosts are built in build-release/TARGET of this checkout (through ccache
# when it is installed), stripped: zig adds debug information by default, ten times the size.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

version="$(sed -n 's/^project(luaform VERSION \([0-9.]*\).*/\1/p' "$project_dir/CMakeLists.txt")"
out="dist"
gpg_key=""
targets=("${release_all_targets[@]}")
providers=()
while (($#)); do
  case "$1" in
    --version) version="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --gpg-key) gpg_key="$2"; shift 2 ;;
    --targets) read -r -a targets <<<"$2"; shift 2 ;;
    -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) release_die "unknown option $1 (see --help)" ;;
    *) providers+=("$1"); shift ;;
  esac
done
((${#providers[@]})) || release_die "name at least one provider directory (see --help)"
for provider in "${providers[@]}"; do
  [[ -f "$provider/provider.lua" ]] || release_die "$provider has no provider.lua"
done
for target in "${targets[@]}"; do release_zig_triple "$target" >/dev/null; done
"$release_dir/install-deps.sh" >&2
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# The host that checks each zip's scripts: the linux_amd64 one, which runs on this machine.
# It is built first whatever the order asked for, and packaged only when asked for.
ordered=(linux_amd64)
package_amd64=0
for target in "${targets[@]}"; do
  if [[ "$target" == linux_amd64 ]]; then package_amd64=1; else ordered+=("$target"); fi
done
check_host=""
launcher=()
if command -v ccache >/dev/null; then
  # As tests/run.sh: paths hashed relative to the checkout, so another clone hits the cache.
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$project_dir" CCACHE_NOHASHDIR=1
  export CCACHE_DIR="${CCACHE_DIR:-${LUAFORM_CACHE:-$HOME/.cache/luaform}/ccache}"
fi

host_path() {  # TARGET: where the release host of TARGET is built
  local exe=""
  [[ "$1" == windows_* ]] && exe=".exe"
  echo "$project_dir/build-release/$1/host/luaform$exe"
}

index=0
for target in "${ordered[@]}"; do
  index=$((index + 1))
  started=$SECONDS
  label="[$index/${#ordered[@]}] $target"
  deps="$(release_deps_dir "$target")"
  if [[ -f "$deps/.complete" ]]; then
    release_log "$label: dependencies cached"
  else
    release_log "$label: building the dependencies (the first time takes long; logs in $release_cache/build/$target/deps)"
  fi
  deps="$("$release_dir/build_deps.sh" "$target" | tail -n 1)"
  build="$project_dir/build-release/$target"
  mkdir -p "$build"
  # CMakePresets.json names the tree and its settings; the paths are this machine's.
  cmake -S "$project_dir" --preset "$target" "${launcher[@]}" \
    -DLUAFORM_TOOLCHAIN_BIN="$release_cache/toolchain/$target" -DLUAFORM_DEPS="$deps" \
    -DLUAFORM_RELEASE_DEPS="$deps" -DLUAFORM_RELEASE_VERSION="$version" >"$build.log" 2>&1 ||
    release_die "$label: configuring the host failed ($build.log)"
  cmake --build "$build" -j "$(release_jobs)" --target luaform >>"$build.log" 2>&1 ||
    release_die "$label: building the host failed ($build.log)"
  host="$(host_path "$target")"
  [[ -n "$check_host" ]] || check_host="$host"
  if [[ "$target" == linux_amd64 ]] && ((!package_amd64)); then
    release_log "$label: built to check the scripts, not packaged (not among --targets)"
    continue
  fi
  for provider in "${providers[@]}"; do
    gpg_args=()
    [[ -n "$gpg_key" ]] && gpg_args=("-DGPG_KEY=$gpg_key")
    cmake -DHOST="$host" -DPROVIDER_DIR="$provider" -DVERSION="$version" -DOUT="$out" \
      -DOS_ARCH="$target" -DCHECK_HOST="$check_host" "${gpg_args[@]}" \
      -P "$project_dir/host/packaging/package_provider.cmake" >>"$build.log" 2>&1 ||
      release_die "$label: packaging $provider failed ($build.log)"
  done
  release_log "$label: host $(stat -c %s "$host") bytes, packaged in $((SECONDS - started)) s"
done

release_log "release set in $out:"
for provider in "${providers[@]}"; do
  name="$(basename "$(cd "$provider" && pwd)")"
  ls -1 "$out"/terraform-provider-"$name"_"$version"_* | sed 's/^/  /' >&2
done
