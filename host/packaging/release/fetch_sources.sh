#!/usr/bin/env bash
# Fetches every file pinned in sources.lock and host_sources.lock into the release cache, checks
# its SHA-256, and unpacks it: the zig toolchain, Debian's source packages (with Debian's patches
# applied) and the headers of the header-only libraries. A second run does nothing but check what
# is there. `fetch_sources.sh --host-source NAME` fetches only the entry NAME of host_sources.lock
# (the development build's CMake asks for lpeg so) and prints the directory it is unpacked in.
#
# Debian sources come from the mirrors this machine already uses: the script writes a private
# apt configuration in the cache (the machine's Debian entries as deb and deb-src) and never
# changes /etc/apt. Needs apt-get, dpkg-source (dpkg-dev) and python3 with pip (for zig).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

downloads="$release_cache/downloads"
sources="$release_cache/sources"
apt_root="$release_cache/apt"
mkdir -p "$downloads" "$sources"

check_sha256() {  # FILE SHA256
  local actual
  actual="$(sha256sum "$1" | cut -d' ' -f1)"
  [[ "$actual" == "$2" ]] ||
    release_die "$1 has SHA-256 $actual, but sources.lock pins $2; delete it and fetch again, or, if the pin is what is out of date, change sources.lock"
}

# --- zig -----------------------------------------------------------------------------------
fetch_zig() {
  local version file sha dir
  version="$(release_lock version ziglang)"
  file="$(release_lock file ziglang)"
  sha="$(release_lock sha256 ziglang)"
  dir="$(release_zig_dir)"
  [[ -x "$dir/zig" ]] && return
  if [[ ! -f "$downloads/$file" ]]; then
    python3 -m pip --version >/dev/null 2>&1 ||
      release_die "fetching zig needs pip (apt-get install python3-pip)"
    release_log "fetching zig $version"
    python3 -m pip download --quiet --no-deps --only-binary=:all: \
      --platform manylinux_2_12_x86_64 -d "$downloads" "ziglang==$version"
  fi
  check_sha256 "$downloads/$file" "$sha"
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  python3 -m zipfile -e "$downloads/$file" "$dir.tmp"
  chmod +x "$dir.tmp/ziglang/zig"
  mv "$dir.tmp/ziglang" "$dir" && rm -rf "$dir.tmp"
}

# --- Debian packages -----------------------------------------------------------------------
# A private apt state whose list is the machine's Debian entries, as deb and deb-src.
apt_options=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$apt_root/sources"
             -o "Dir::State::Lists=$apt_root/lists" -o "Dir::Cache=$apt_root/cache"
             -o "APT::Sandbox::User=root" -q)
apt_ready=""
prepare_apt() {
  [[ -n "$apt_ready" ]] && return
  local codename
  codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
  [[ -n "$codename" ]] || release_die "cannot tell this machine's Debian release from /etc/os-release"
  mkdir -p "$apt_root/sources" "$apt_root/lists/partial" "$apt_root/cache/archives/partial"
  # deb822 files: each stanza whose suites are this release's, with both types.
  local file
  : >"$apt_root/sources/debian.sources"
  for file in /etc/apt/sources.list.d/*.sources; do
    [[ -f "$file" ]] || continue
    awk -v codename="$codename" '
      function flush() { if (stanza != "" && keep) print stanza "\n"; stanza = ""; keep = 0 }
      /^[[:space:]]*$/ { flush(); next }
      /^#/ { next }
      /^Types:/ { $0 = "Types: deb deb-src" }
      /^Suites:/ { if ($0 ~ ("[[:space:]]" codename "([[:space:]-]|$)")) keep = 1 }
      /^Enabled:[[:space:]]*no/ { keep = -1000 }
      { stanza = stanza $0 "\n" }
      END { flush() }' "$file" >>"$apt_root/sources/debian.sources"
  done
  # One-line entries in sources.list.
  if [[ -f /etc/apt/sources.list ]]; then
    awk -v codename="$codename" '$1 == "deb" && $0 ~ (" " codename "([ -]|$)") {
        print; sub(/^deb/, "deb-src"); print }' /etc/apt/sources.list \
      >"$apt_root/sources/debian.list"
  fi
  grep -q . "$apt_root/sources/"* ||
    release_die "no Debian $codename entry in /etc/apt/sources.list{,.d} to fetch sources from"
  release_log "reading the Debian source index"
  apt-get "${apt_options[@]}" update >"$apt_root/update.log" 2>&1 ||
    release_die "apt-get update failed ($apt_root/update.log)"
  apt_ready=1
}

offered_versions() {  # PACKAGE: the versions the index has, for the error message
  apt-cache "${apt_options[@]}" showsrc "$1" 2>/dev/null | awk '/^Version:/ { printf "%s ", $2 }'
}

# A field of host_sources.lock, as release_lock reads sources.lock.
host_lock() {  # FIELD NAME
  local column
  case "$1" in
    version) column=3 ;; file) column=4 ;; sha256) column=5 ;;
  esac
  awk -v name="$2" -v column="$column" '!/^#/ && NF == 5 && $2 == name { print $column }' \
    "$release_dir/host_sources.lock"
}

# Sets version, file, sha and dir of the entry NAME of sources.lock (or, with a second argument
# `host`, of host_sources.lock); false when it is unpacked already.
locked_entry() {
  local lock=release_lock
  [[ "${2:-}" == host ]] && lock=host_lock
  version="$("$lock" version "$1")"
  file="$("$lock" file "$1")"
  sha="$("$lock" sha256 "$1")"
  [[ -n "$sha" ]] || release_die "no entry $1 in ${lock%_lock} lock"
  dir="$sources/$1"
  [[ ! -f "$dir/.luaform-$sha" ]]
}

# Downloads the locked file of NAME with `apt-get APT_ARGS...` (once) and checks its digest.
apt_download() {  # NAME APT_ARGS...
  local name="$1"
  shift
  mkdir -p "$downloads/$name"
  if [[ ! -f "$downloads/$name/$file" ]]; then
    prepare_apt
    release_log "fetching $name $version"
    (cd "$downloads/$name" && apt-get "${apt_options[@]}" "$@" >apt.log 2>&1) ||
      release_die "apt-get $* failed ($downloads/$name/apt.log); the index offers: $(offered_versions "$name")- if the pinned version is gone, pin one of these in sources.lock"
  fi
  check_sha256 "$downloads/$name/$file" "$sha"
  rm -rf "$dir"
}

fetch_source() {  # NAME [host]: a source package, unpacked with Debian's patches under sources/NAME
  locked_entry "$1" "${2:-}" || return 0
  apt_download "$1" source --download-only "$1=$version"
  dpkg-source --no-check -x "$downloads/$1/$file" "$dir" >"$downloads/$1/unpack.log" 2>&1 ||
    release_die "dpkg-source could not unpack $file ($downloads/$1/unpack.log)"
  touch "$dir/.luaform-$sha"
}

fetch_headers() {  # NAME: a binary package of headers, unpacked under sources/NAME
  locked_entry "$1" || return 0
  apt_download "$1" download "$1=$version"
  dpkg-deb -x "$downloads/$1/$file" "$dir"
  touch "$dir/.luaform-$sha"
}

command -v dpkg-source >/dev/null || release_die "dpkg-source is missing (apt-get install dpkg-dev)"
if [[ "${1:-}" == --host-source ]]; then
  [[ -n "${2:-}" ]] || release_die "usage: fetch_sources.sh [--host-source NAME]"
  fetch_source "$2" host
  echo "$sources/$2"
  exit 0
fi
fetch_zig
while read -r kind name _; do
  case "$kind" in
    source) fetch_source "$name" ;;
    headers) fetch_headers "$name" ;;
  esac
done < <(grep -v '^#' "$release_dir/sources.lock")
while read -r kind name _; do
  [[ "$kind" == source ]] && fetch_source "$name" host
done < <(grep -v '^#' "$release_dir/host_sources.lock")
release_log "sources ready in $sources"
