# The release hosts' allocator. A provider serves calls on many threads at once (the CLI plans
# and applies resources in parallel, and each call runs on a Lua state of its own), and musl's
# malloc, which the static Linux hosts would otherwise use, takes a lock that serialises them:
# tests/bench measured the release host at 1.4x the development host's CPU per call with ten
# calls at once. mimalloc, from Debian's source package (pinned in
# host/packaging/release/host_sources.lock), replaces malloc, free and their kin in the binary:
# its objects are linked into the host, so the linker takes its definitions and never musl's,
# and everything allocates from it: C++'s new, Lua's states (whose allocator calls realloc),
# gRPC, OpenSSL and curl. Included by release_libraries.cmake; LUAFORM_ALLOCATOR=system keeps
# the C library's (to measure the difference).
set(LUAFORM_ALLOCATOR "mimalloc" CACHE STRING "The release host's allocator: mimalloc or system")
set_property(CACHE LUAFORM_ALLOCATOR PROPERTY STRINGS mimalloc system)
if(NOT LUAFORM_ALLOCATOR STREQUAL "mimalloc")
  return()
endif()
# Only where the binary is static with musl: on Windows and macOS the system allocator is the
# one every program links (and replacing it in a static binary is not supported there).
if(NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
  return()
endif()

set(mimalloc_lock ${PROJECT_SOURCE_DIR}/host/packaging/release/host_sources.lock)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${mimalloc_lock})
execute_process(
  COMMAND bash ${PROJECT_SOURCE_DIR}/host/packaging/release/fetch_sources.sh
          --host-source mimalloc
  OUTPUT_VARIABLE mimalloc_source RESULT_VARIABLE mimalloc_fetch_status
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT mimalloc_fetch_status EQUAL 0 OR NOT EXISTS ${mimalloc_source}/src/static.c)
  message(FATAL_ERROR "fetching mimalloc's source failed (above); it needs apt-get, dpkg-source "
                      "(dpkg-dev) and this machine's Debian mirrors")
endif()

# static.c includes every part of mimalloc: one translation unit. MI_MALLOC_OVERRIDE defines
# malloc, free and the rest; mimalloc defines aligned_alloc only where glibc's macro says C11
# is on, so it is said here too: musl's aligned_alloc must not be linked beside mimalloc's free.
add_library(luaform_allocator OBJECT ${mimalloc_source}/src/static.c)
target_include_directories(luaform_allocator SYSTEM PRIVATE ${mimalloc_source}/include)
target_compile_definitions(luaform_allocator PRIVATE MI_MALLOC_OVERRIDE MI_STATIC_LIB NDEBUG
                                                     __USE_ISOC11=1)
target_compile_options(luaform_allocator PRIVATE -O2 -w)
