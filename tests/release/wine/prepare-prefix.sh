#!/usr/bin/env bash
# Makes the wine prefix the Windows release tests run in, once, in the cache: wine's first start
# in a new prefix takes a minute and a half. Adds bcryptprimitives.dll (ProcessPrng, which
# OpenTofu's Go runtime needs and Debian's Wine 8 lacks), built from bcryptprimitives.c with the
# release toolchain's zig. Prints the prefix.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../../../host/packaging/release/common.sh"
prefix="${LUAFORM_CACHE:-$HOME/.cache/luaform}/wine"
wine=/usr/lib/wine/wine64
[[ -x "$wine" ]] || release_die "wine is missing (apt-get install wine64)"
dll="$prefix/drive_c/windows/system32/bcryptprimitives.dll"
stamp="$prefix/.luaform-$(sha256sum "$here/bcryptprimitives.c" | cut -c1-16)"
if [[ ! -f "$stamp" ]]; then
  "$release_dir/fetch_sources.sh" >&2
  if [[ ! -d "$prefix/drive_c" ]]; then
    echo "wine: creating the prefix $prefix" >&2
    WINEPREFIX="$prefix" WINEDEBUG=-all "$wine" wineboot --init >/dev/null 2>&1 ||
      release_die "wine could not create the prefix $prefix"
  fi
  ZIG_GLOBAL_CACHE_DIR="$release_cache/zig-cache" ZIG_LOCAL_CACHE_DIR="$release_cache/zig-cache" \
    "$(release_zig_dir)/zig" cc -target x86_64-windows-gnu -O2 -shared -o "$dll" \
    "$here/bcryptprimitives.c" -ladvapi32
  rm -f "$prefix"/.luaform-* && touch "$stamp"
fi
echo "$prefix"
