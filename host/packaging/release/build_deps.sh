#!/usr/bin/env bash
# Builds the dependencies of the release host for one target from the sources that
# fetch_sources.sh unpacked, with zig, into the target's prefix in the release cache:
# static archives only (lib/*.a) and their headers (include/). A prefix that is complete for
# the current sources.lock and scripts is used as it is: only the first build pays.
#
#   host/packaging/release/build_deps.sh linux_amd64
#
# Prints the prefix on its last line. A failing step names its log.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

target="${1:?usage: build_deps.sh TARGET (one of ${release_all_targets[*]})}"
triple="$(release_zig_triple "$target")"
prefix="$(release_deps_dir "$target")"
if [[ -f "$prefix/.complete" ]]; then
  echo "$prefix"
  exit 0
fi
# Run alone on a fresh machine too: re2's tables need unicode-data, OpenSSL's Configure perl.
"$release_dir/install-deps.sh" >&2
"$release_dir/fetch_sources.sh"

sources="$release_cache/sources"
work="$release_cache/build/$target/deps"
stage="$prefix.partial"
bin="$release_cache/toolchain/$target"
jobs="$(release_jobs)"
# A stage left by an interrupted build of the same key keeps the steps it finished.
mkdir -p "$work" "$stage/include" "$stage/lib" "$bin"

# --- the toolchain: one wrapper per tool, with the target built in --------------------------
zig="$(release_zig_dir)/zig"
# musl declares the *64 file functions and types (off64_t, which abseil uses) only on request.
target_flags=""
[[ "$triple" == *-linux-musl ]] && target_flags=" -D_LARGEFILE64_SOURCE"
# gRPC includes <strsafe.h>, whose deprecation macros rename strcpy and friends, before
# libc++'s <cstring> and <cwchar>, which then name functions that no longer exist.
[[ "$triple" == *-windows-* ]] && target_flags=" -DSTRSAFE_NO_DEPRECATE"
# The architecture in Apple's spelling, as -Xarch_ flags name it.
apple_arch="${triple%%-*}"
[[ "$apple_arch" == aarch64 ]] && apple_arch=arm64
for tool in cc c++ ar ranlib rc; do
  case "$tool" in
    cc | c++) command="\"$zig\" $tool -target $triple$target_flags" ;;
    *) command="\"$zig\" $tool" ;;
  esac
  # zig takes CPU features as -mcpu, not -march: abseil asks for ARM's AES instructions with
  # -march=armv8-a+crypto (for a code path it only takes when the CPU has them). On Apple
  # targets abseil passes each architecture's flags behind -Xarch_ARCH, which zig's driver
  # applies to every architecture: the wrapper keeps the flag for the target's own only, and
  # drops the x86 feature flags abseil's Apple list also passes bare (-msse4.1) on ARM.
  cat >"$bin/$tool" <<WRAPPER
#!/bin/sh
# written by build_deps.sh: zig's $tool for $target
export ZIG_GLOBAL_CACHE_DIR="$release_cache/zig-cache" ZIG_LOCAL_CACHE_DIR="$release_cache/zig-cache"
next=pass
for arg; do
  shift
  case "\$next" in
    keep) next=pass ;;
    drop) next=pass; continue ;;
  esac
  case "\$arg" in
    -Xarch_$apple_arch) next=keep; continue ;;
    -Xarch_*) next=drop; continue ;;
    -msse* | -maes) [ "$apple_arch" = arm64 ] && continue ;;
  esac
  case "\$arg" in
    -march=armv8-a+crypto) set -- "\$@" -mcpu=generic+crypto ;;
    *) set -- "\$@" "\$arg" ;;
  esac
done
exec $command "\$@"
WRAPPER
  chmod +x "$bin/$tool"
done

# --- helpers ---------------------------------------------------------------------------------
# Each dependency is a function build_NAME; a finished one leaves a mark in the stage.
build_step() {  # NAME: runs build_NAME unless an earlier run of this key finished it
  step_name="$1"
  if [[ -f "$stage/.built-$1" ]]; then
    release_log "$target: $1 was built before"
    return
  fi
  local started=$SECONDS
  release_log "$target: building $1"
  rm -rf "${work:?}/$1" "$work/$1.log"
  "build_${1//-/_}"
  touch "$stage/.built-$1"
  release_log "$target: $1 built in $((SECONDS - started)) s"
}
run() {  # COMMAND...: runs it with the output in the step's log, or fails naming the log
  "$@" >>"$work/$step_name.log" 2>&1 ||
    release_die "$target: building $step_name failed: $* (log: $work/$step_name.log)"
}
cmake_project() {  # SOURCE_DIR [CMAKE ARGS...]: configure, build and install into the stage
  local source="$1" flags=()
  shift
  # On Windows the stage's headers include winpthreads', which abseil includes directly.
  if [[ "$os_family" == windows ]]; then
    flags=(-DCMAKE_C_FLAGS="-isystem $stage/include ${extra_c_flags:-}"
           -DCMAKE_CXX_FLAGS="-isystem $stage/include")
  elif [[ -n "${extra_c_flags:-}" ]]; then
    flags=(-DCMAKE_C_FLAGS="$extra_c_flags")
  fi
  run cmake -S "$source" -B "$work/$step_name" -G Ninja "${flags[@]}" \
    -DCMAKE_TOOLCHAIN_FILE="$release_dir/toolchain.cmake" -DLUAFORM_TARGET="$target" \
    -DLUAFORM_TOOLCHAIN_BIN="$bin" -DLUAFORM_DEPS="$stage" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$stage" -DCMAKE_INSTALL_LIBDIR=lib \
    -DCMAKE_PREFIX_PATH="$stage" -DBUILD_SHARED_LIBS=OFF -DBUILD_TESTING=OFF \
    -DCMAKE_CXX_STANDARD=17 "$@"
  run cmake --build "$work/$step_name" -j "$jobs"
  run cmake --install "$work/$step_name"
}
compile_archive() {  # LANGUAGE ARCHIVE FLAGS -- SOURCES...: compiles sources into one archive
  local language="$1" archive="$2" flags=() objects=() source object
  shift 2
  while [[ "$1" != "--" ]]; do flags+=("$1"); shift; done
  shift
  mkdir -p "$work/$step_name"
  # `jobs` compilations at a time; every one's exit status is collected (an object file alone
  # proves nothing: a failed compilation may leave one).
  local pids=() failed=0 pid
  for source in "$@"; do
    object="$work/$step_name/$(basename "${source%.*}").o"
    "$bin/$language" "${flags[@]}" -c "$source" -o "$object" >>"$work/$step_name.log" 2>&1 &
    pids+=("$!")
    objects+=("$object")
    if ((${#pids[@]} >= jobs)); then
      wait "${pids[0]}" || failed=1
      pids=("${pids[@]:1}")
    fi
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  ((failed == 0)) || release_die "$target: building $step_name failed (log: $work/$step_name.log)"
  run "$bin/ar" rcs "$stage/lib/$archive" "${objects[@]}"
}
os_family="${target%%_*}"

# --- zlib: its few files compiled directly (its CMake build insists on a shared library) ---
build_zlib() {
  zlib_src="$sources/zlib"
  zlib_flags=(-O2)
  [[ "$os_family" != windows ]] && zlib_flags+=(-DHAVE_UNISTD_H)
  # zlib 1.2.13 takes clang's TARGET_OS_MAC for classic Mac OS and defines fdopen away
  # (fixed in 1.2.14); a macro of the same name keeps it.
  [[ "$os_family" == darwin ]] && zlib_flags+=(-Dfdopen=fdopen)
  compile_archive cc libz.a "${zlib_flags[@]}" -- \
    "$zlib_src"/{adler32,compress,crc32,deflate,gzclose,gzlib,gzread,gzwrite,infback,inffast,inflate,inftrees,trees,uncompr,zutil}.c
  cp "$zlib_src/zlib.h" "$zlib_src/zconf.h" "$stage/include/"
}

# --- OpenSSL -------------------------------------------------------------------------------
build_openssl() {
  case "$target" in
    linux_amd64) openssl_target=linux-x86_64 ;;
    linux_arm64) openssl_target=linux-aarch64 ;;
    windows_amd64) openssl_target=mingw64 ;;
    windows_arm64) openssl_target=luaform-mingw-arm64 ;;
    darwin_amd64) openssl_target=darwin64-x86_64-cc ;;
    darwin_arm64) openssl_target=darwin64-arm64-cc ;;
  esac
  local seed=()
  # Seeding from CommonCrypto needs the macOS SDK's headers, which zig does not bring; the
  # kernel's getentropy and /dev/urandom serve instead.
  [[ "$os_family" == darwin ]] && seed=(-DOPENSSL_NO_APPLE_CRYPTO_RANDOM)
  mkdir -p "$work/openssl"
  # OpenSSL 3.0 knows MinGW on x86 only (3.2 adds ARM64 as mingwarm64): the same target with
  # 64-bit words and, as everywhere here, no assembly.
  local config=()
  if [[ "$openssl_target" == luaform-mingw-arm64 ]]; then
    cat >"$work/openssl/luaform-mingw-arm64.conf" <<'CONF'
my %targets = (
  "luaform-mingw-arm64" => {
    inherit_from => [ "mingw-common" ],
    sys_id       => "MINGW64",
    bn_ops       => add("SIXTY_FOUR_BIT"),
    multilib     => "64",
  },
);
CONF
    config=(--config="$work/openssl/luaform-mingw-arm64.conf")
  fi
  # no-asm: portable C everywhere (the host's TLS is one handshake per run and API calls).
  # OPENSSLDIR /etc/ssl is only a default: the HTTP client finds the system's CA bundle itself.
  (cd "$work/openssl" && run env CC="$bin/cc" AR="$bin/ar" RANLIB="$bin/ranlib" \
    perl "$sources/openssl/Configure" "${config[@]}" "$openssl_target" no-shared no-tests no-asm \
    no-dso no-engine no-module no-legacy "${seed[@]}" --prefix="$stage" --libdir=lib \
    --openssldir=/etc/ssl)
  run make -C "$work/openssl" -j "$jobs" build_libs
  run make -C "$work/openssl" install_dev
}

# --- winpthreads (Windows only): abseil's MinGW build uses POSIX threads, which zig's
# MinGW-w64 does not bring; Debian's mingw-w64 source has them -----------------------------
build_winpthreads() {
  local source="$sources/mingw-w64/mingw-w64-libraries/winpthreads"
  compile_archive cc libpthread.a -O2 -DIN_WINPTHREAD -DWINPTHREAD_STATIC -I"$source/include" \
    -I"$source/src" -- "$source"/src/*.c
  cp "$source"/include/*.h "$stage/include/"
}

# --- c-ares, re2, abseil, protobuf ---------------------------------------------------------
build_c_ares() {
  # c-ares 1.18 uses INADDRSZ, which only the Linux C libraries' <arpa/nameser.h> define
  # (fixed in 1.19).
  local inaddrsz=""
  [[ "$os_family" != linux ]] && inaddrsz="-DINADDRSZ=4"
  extra_c_flags="$inaddrsz" cmake_project "$sources/c-ares" -DCARES_STATIC=ON \
    -DCARES_SHARED=OFF -DCARES_BUILD_TOOLS=OFF -DCARES_BUILD_TESTS=OFF
}

build_re2() {
  # Debian's re2 source leaves out its generated tables; they are made from Debian's Unicode data
  # (unicode-data), as Debian's own build makes them.
  for table in perl_groups unicode_casefold unicode_groups; do
    if [[ ! -s "$sources/re2/re2/$table.cc" ]]; then
      case "$table" in
        perl_groups) run sh -c "cd '$sources/re2' && perl re2/make_perl_groups.pl >re2/$table.cc.tmp" ;;
        *) run sh -c "cd '$sources/re2' && /usr/bin/python3 re2/make_$table.py >re2/$table.cc.tmp" ;;
      esac
      mv "$sources/re2/re2/$table.cc.tmp" "$sources/re2/re2/$table.cc"
    fi
  done
  cmake_project "$sources/re2" -DRE2_BUILD_TESTING=OFF
}

build_abseil() {
  local source="$sources/abseil"
  if [[ "$os_family" == darwin ]]; then
    # zig brings macOS's libSystem but no SDK frameworks, and abseil asks CoreFoundation for
    # the local time zone's name. Without it abseil reads TZ and /etc/localtime, as elsewhere.
    source="$work/abseil-source"
    rm -rf "$source" && cp -R "$sources/abseil" "$source"
    sed -i 's/^#if defined(__APPLE__)$/#if 0  \/\/ luaform: no CoreFoundation without the macOS SDK/' \
      "$source/absl/time/internal/cctz/src/time_zone_lookup.cc"
  fi
  cmake_project "$source" -DABSL_PROPAGATE_CXX_STD=ON -DABSL_ENABLE_INSTALL=ON
}

build_protobuf() {
  # libprotoc too: gRPC's CMake wants it for its code generator's support library, which is
  # never built here (the generators that run are this machine's).
  cmake_project "$sources/protobuf" -Dprotobuf_BUILD_TESTS=OFF -Dprotobuf_BUILD_PROTOC_BINARIES=OFF \
    -Dprotobuf_BUILD_LIBPROTOC=ON -Dprotobuf_WITH_ZLIB=OFF -Dprotobuf_BUILD_SHARED_LIBS=OFF
}

# --- gRPC: only the C++ library and what it links, against the packages above ---------------
build_grpc() {
  local flags=()
  # zig's macOS headers have no <arpa/nameser.h>, which gRPC's c-ares resolver includes on
  # Apple systems; gRPC's own resolver (getaddrinfo) serves there instead. The plugin resolves
  # no names through gRPC anyway: it only listens.
  [[ "$os_family" == darwin ]] && flags=(-DCMAKE_C_FLAGS=-DGRPC_ARES=0 -DCMAKE_CXX_FLAGS=-DGRPC_ARES=0)
  run cmake -S "$sources/grpc" -B "$work/grpc" -G Ninja "${flags[@]}" \
    -DCMAKE_TOOLCHAIN_FILE="$release_dir/toolchain.cmake" -DLUAFORM_TARGET="$target" \
    -DLUAFORM_TOOLCHAIN_BIN="$bin" -DLUAFORM_DEPS="$stage" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$stage" -DBUILD_SHARED_LIBS=OFF -DCMAKE_CXX_STANDARD=17 \
    -DgRPC_BUILD_TESTS=OFF -DgRPC_BUILD_CODEGEN=OFF -DgRPC_INSTALL=OFF \
    -DgRPC_ZLIB_PROVIDER=package -DgRPC_CARES_PROVIDER=package -DgRPC_RE2_PROVIDER=package \
    -DgRPC_SSL_PROVIDER=package -DgRPC_PROTOBUF_PROVIDER=package -DgRPC_ABSL_PROVIDER=package \
    -DgRPC_BENCHMARK_PROVIDER=none -DgRPC_BUILD_CSHARP_EXT=OFF \
    -DProtobuf_PROTOC_EXECUTABLE="$(command -v protoc)"
  run cmake --build "$work/grpc" -j "$jobs" --target grpc++
  for archive in grpc++ grpc gpr upb address_sorting; do
    found="$(find "$work/grpc" -name "lib$archive.a" -print -quit)"
    [[ -n "$found" ]] || release_die "$target: gRPC built no lib$archive.a (log: $work/grpc.log)"
    cp "$found" "$stage/lib/"
  done
  cp -R "$sources/grpc/include/grpc" "$sources/grpc/include/grpcpp" "$sources/grpc/include/grpc++" \
    "$stage/include/"
}

# --- libcurl: HTTP and HTTPS only, OpenSSL, no CA path of its own ---------------------------
build_curl() {
  # On macOS curl's threaded resolver needs Apple's SystemConfiguration and CoreFoundation,
  # which zig does not have: names are resolved through c-ares there (built above for gRPC),
  # which reads /etc/resolv.conf.
  local resolver=(-DENABLE_THREADED_RESOLVER=ON)
  [[ "$os_family" == darwin ]] && resolver=(-DENABLE_THREADED_RESOLVER=OFF -DENABLE_ARES=ON)
  cmake_project "$sources/curl" -DBUILD_CURL_EXE=OFF -DHTTP_ONLY=ON -DCURL_USE_OPENSSL=ON \
    -DCURL_ZLIB=ON -DUSE_LIBIDN2=OFF -DCURL_USE_LIBSSH2=OFF -DUSE_NGHTTP2=OFF -DCURL_BROTLI=OFF \
    -DCURL_ZSTD=OFF -DENABLE_MANUAL=OFF -DCURL_CA_BUNDLE=none -DCURL_CA_PATH=none \
    -DCURL_DISABLE_LDAP=ON -DCURL_USE_LIBPSL=OFF "${resolver[@]}"
}

# --- Lua 5.4, compiled as C++ (errors unwind as exceptions), as Debian's liblua5.4-c++ -------
build_lua() {
  lua_src="$sources/lua5.4/src"
  # Debian's luaconf.h includes this header of its build (for C module paths, unused here).
  mkdir -p "$stage/include/lua5.4"
  echo '#define DEB_HOST_MULTIARCH "'"$triple"'"' >"$stage/include/lua5.4/lua5.4-deb-multiarch.h"
  lua_flags=(-x c++ -std=c++17 -O2 -DLUA_COMPAT_5_3 -I"$stage/include/lua5.4")
  [[ "$os_family" != windows ]] && lua_flags+=(-DLUA_USE_POSIX)
  lua_sources=()
  for source in "$lua_src"/l*.c; do
    case "$(basename "$source")" in lua.c | luac.c) ;; *) lua_sources+=("$source") ;; esac
  done
  compile_archive c++ liblua5.4-c++.a "${lua_flags[@]}" -- "${lua_sources[@]}"
  cp "$lua_src"/{lua.h,luaconf.h,lualib.h,lauxlib.h,lua.hpp} "$stage/include/lua5.4/"
}

dependencies=(zlib openssl c_ares re2)
[[ "$os_family" == windows ]] && dependencies+=(winpthreads)
dependencies+=(abseil protobuf grpc curl lua)
for dependency in "${dependencies[@]}"; do
  build_step "$dependency"
done

# --- header-only libraries -------------------------------------------------------------------
cp -R "$sources/nlohmann-json3-dev/usr/include/." "$sources/libmsgpack-cxx-dev/usr/include/." \
  "$stage/include/"

# Only archives: a shared library here would be linked instead of its archive.
find "$stage" \( -name '*.so*' -o -name '*.dylib' -o -name '*.dll*' \) -delete
touch "$stage/.complete"
rm -rf "$prefix" && mv "$stage" "$prefix"
rm -rf "$work"  # the scratch of each library, kept only to resume an interrupted build
# Prefixes of this target under older keys are never used again.
for old in "$release_cache/deps/$target"-*; do
  [[ "$old" == "$prefix" ]] || rm -rf "$old"
done
release_log "$target: dependencies ready in $prefix"
echo "$prefix"
