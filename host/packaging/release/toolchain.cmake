# CMake toolchain of a release target: zig's clang, lld and libc++ through the wrappers that
# build_deps.sh writes (LUAFORM_TOOLCHAIN_BIN: cc, c++, ar, ranlib), finding libraries and
# headers only in the target's dependency prefix (LUAFORM_DEPS) and programs only on this
# machine (protoc and grpc_cpp_plugin run here, at build time).
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=host/packaging/release/toolchain.cmake \
#         -DLUAFORM_TARGET=linux_arm64 -DLUAFORM_TOOLCHAIN_BIN=... -DLUAFORM_DEPS=...
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES LUAFORM_TARGET LUAFORM_TOOLCHAIN_BIN LUAFORM_DEPS)
foreach(required LUAFORM_TARGET LUAFORM_TOOLCHAIN_BIN LUAFORM_DEPS)
  if(NOT ${required})
    message(FATAL_ERROR "the release toolchain needs -D${required}=... (build_deps.sh passes it)")
  endif()
endforeach()

if(LUAFORM_TARGET MATCHES "^linux_")
  set(CMAKE_SYSTEM_NAME Linux)
elseif(LUAFORM_TARGET MATCHES "^windows_")
  set(CMAKE_SYSTEM_NAME Windows)
elseif(LUAFORM_TARGET MATCHES "^darwin_")
  set(CMAKE_SYSTEM_NAME Darwin)
  # zig brings the macOS SDK's libSystem itself: no sysroot. The architecture is named, as on a
  # Mac (zig accepts the -arch it matches): abseil picks its CPU flags from it.
  set(CMAKE_OSX_SYSROOT "" CACHE PATH "" FORCE)
  if(LUAFORM_TARGET STREQUAL "darwin_arm64")
    set(CMAKE_OSX_ARCHITECTURES arm64 CACHE STRING "" FORCE)
  else()
    set(CMAKE_OSX_ARCHITECTURES x86_64 CACHE STRING "" FORCE)
  endif()
else()
  message(FATAL_ERROR "unknown release target ${LUAFORM_TARGET}")
endif()
if(LUAFORM_TARGET MATCHES "_amd64$")
  set(CMAKE_SYSTEM_PROCESSOR x86_64)
else()
  set(CMAKE_SYSTEM_PROCESSOR aarch64)
endif()

set(CMAKE_C_COMPILER "${LUAFORM_TOOLCHAIN_BIN}/cc")
set(CMAKE_CXX_COMPILER "${LUAFORM_TOOLCHAIN_BIN}/c++")
set(CMAKE_AR "${LUAFORM_TOOLCHAIN_BIN}/ar" CACHE FILEPATH "" FORCE)
set(CMAKE_RANLIB "${LUAFORM_TOOLCHAIN_BIN}/ranlib" CACHE FILEPATH "" FORCE)
if(CMAKE_SYSTEM_NAME STREQUAL "Windows")
  set(CMAKE_RC_COMPILER "${LUAFORM_TOOLCHAIN_BIN}/rc" CACHE FILEPATH "" FORCE)
endif()

set(CMAKE_FIND_ROOT_PATH "${LUAFORM_DEPS}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Only static archives exist in the prefix; say so to the Find modules that ask.
set(OPENSSL_USE_STATIC_LIBS TRUE)
set(OPENSSL_ROOT_DIR "${LUAFORM_DEPS}")
