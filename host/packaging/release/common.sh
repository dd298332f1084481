# Shared by the release scripts (sourced, not run): where the release cache lives, the targets
# and their zig triples, the key of a target's built dependencies, and logging.
#
# The cache (LUAFORM_RELEASE_CACHE, default ~/.cache/luaform/release) holds:
#   downloads/   the pinned files of sources.lock, checked
#   zig-VERSION/ the toolchain
#   sources/     each source package unpacked (Debian's patches applied)
#   deps/TARGET-KEY/  one target's built dependencies (include/, lib/*.a); KEY changes whenever
#                sources.lock or the scripts that build them change
#   build/TARGET/     scratch for the dependency and host builds of one target

release_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
project_dir="$(cd "$release_dir/../../.." && pwd)"
release_cache="${LUAFORM_RELEASE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/luaform/release}"

# Every target a release can have, in Terraform's OS_ARCH spelling.
release_all_targets=(linux_amd64 linux_arm64 windows_amd64 windows_arm64 darwin_amd64 darwin_arm64)

release_log() { echo "release: $*" >&2; }
release_die() {
  echo "release: error: $*" >&2
  exit 1
}

# The zig target triple of OS_ARCH. Linux targets are musl, linked fully statically: the
# binary needs nothing from the system but the kernel.
release_zig_triple() {
  case "$1" in
    linux_amd64) echo x86_64-linux-musl ;;
    linux_arm64) echo aarch64-linux-musl ;;
    windows_amd64) echo x86_64-windows-gnu ;;
    windows_arm64) echo aarch64-windows-gnu ;;
    darwin_amd64) echo x86_64-macos.11.0 ;;
    darwin_arm64) echo aarch64-macos.11.0 ;;
    *) release_die "unknown target \"$1\" (targets: ${release_all_targets[*]})" ;;
  esac
}

# A field of sources.lock: release_lock FIELD NAME, FIELD one of kind version file sha256.
release_lock() {
  local column
  case "$1" in
    kind) column=1 ;; version) column=3 ;; file) column=4 ;; sha256) column=5 ;;
    *) release_die "release_lock: no field $1" ;;
  esac
  awk -v name="$2" -v column="$column" '!/^#/ && NF == 5 && $2 == name { print $column }' \
    "$release_dir/sources.lock"
}

release_zig_dir() { echo "$release_cache/zig-$(release_lock version ziglang)"; }

# The key of TARGET's dependencies: what they are built from and how.
release_deps_key() {
  cat "$release_dir/sources.lock" "$release_dir/build_deps.sh" "$release_dir/common.sh" \
    "$release_dir/toolchain.cmake" | { cat; echo "$1"; } | sha256sum | cut -c1-16
}
release_deps_dir() { echo "$release_cache/deps/$1-$(release_deps_key "$1")"; }

# The number of parallel jobs for a build: the cores, unless LUAFORM_RELEASE_JOBS says.
release_jobs() { echo "${LUAFORM_RELEASE_JOBS:-$(nproc)}"; }
