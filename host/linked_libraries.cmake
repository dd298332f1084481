# How the host links gRPC, protobuf and Lua: two interface targets, luaform_grpc and
# luaform_liblua, that the rest of the build links instead of the packages' own targets.
#
# By default they link Debian's static archives (libgrpc++.a, libprotobuf.a, libabsl_*.a,
# liblua5.4-c++.a, ...). A plugin process is started by the CLI several times per command and
# the CLI waits for its handshake each time; linked against the shared gRPC the host loads about
# 60 libraries at every start and spends most of its cold start in the dynamic loader
# (tests/bench/README.md has the figures). OpenSSL and zlib stay shared: they are one library
# each, and OpenSSL gets its security updates from the system. libcurl is not linked at all:
# host/lua/modules/curl_library.cpp opens it when a script first makes a request.
#
# The C++ runtime is linked statically too (-static-libstdc++: a shared libstdc++ is mapped
# whole, 1.5 MB of resident memory and a millisecond of every start), except under the
# sanitizers, whose runtimes must interpose on the shared library's operator new and delete.
#
# -DLUAFORM_STATIC_LIBS=OFF links the shared libraries instead (a faster link, a slower start).
option(LUAFORM_STATIC_LIBS "Link gRPC, protobuf, abseil, Lua and the C++ runtime statically" ON)

add_library(luaform_grpc INTERFACE)
add_library(luaform_liblua INTERFACE)

if(NOT LUAFORM_STATIC_LIBS)
  if(TARGET gRPC::grpc++)
    target_link_libraries(luaform_grpc INTERFACE gRPC::grpc++ protobuf::libprotobuf)
  endif()
  target_link_libraries(luaform_liblua INTERFACE PkgConfig::LUA)
  return()
endif()

if(NOT LUAFORM_SANITIZE AND NOT LUAFORM_SANITIZE_THREAD AND NOT LUAFORM_FUZZ)
  target_link_options(luaform_flags INTERFACE -static-libstdc++ -static-libgcc)
endif()

# With gRPC and protobuf inside, the position-independent host has some 31,000 relative
# relocations (vtables, descriptor tables): 750 KB of .rela.dyn that the loader reads, and keeps
# resident, at every start. Packed (DT_RELR, glibc 2.36 and binutils 2.38 on) they take 5 KB;
# tests/bench/README.md has what that did to the cold start.
include(CheckLinkerFlag)
check_linker_flag(CXX "-Wl,-z,pack-relative-relocs" LUAFORM_LINKER_PACKS_RELOCS)
if(LUAFORM_LINKER_PACKS_RELOCS)
  target_link_options(luaform_flags INTERFACE "-Wl,-z,pack-relative-relocs")
endif()

# The archive of library NAME (as pkg-config spells it after -l), or a loud error naming it.
function(luaform_static_archive name out)
  # Unset first: find_library does not search again when the variable is already set.
  unset(luaform_found_archive)
  find_library(luaform_found_archive NAMES lib${name}.a NO_CACHE)
  if(NOT luaform_found_archive)
    message(FATAL_ERROR "lib${name}.a is missing: LUAFORM_STATIC_LIBS links the static archives "
                        "of gRPC, protobuf, abseil and Lua (tests/setup/install-deps.sh installs "
                        "them), or configure with -DLUAFORM_STATIC_LIBS=OFF")
  endif()
  set(${out} ${luaform_found_archive} PARENT_SCOPE)
endfunction()

# pkg-config --static lists every library gRPC needs, in link order; those that are ours to
# carry become archives in one linker group (so their order stops mattering), the system ones
# (OpenSSL, zlib, libdl, librt, libatomic) stay -l flags. Asked once, directly: pkg-config
# walks abseil's graph of some 80 .pc files in about 2 s per question, and pkg_check_modules
# asks fourteen questions, which made every fresh configure of a build tree take 30 s.
if(TARGET gRPC::grpc++)
  execute_process(COMMAND ${PKG_CONFIG_EXECUTABLE} --static --libs-only-l grpc++ protobuf
                  OUTPUT_VARIABLE grpc_link_flags ERROR_VARIABLE grpc_pkg_config_error
                  RESULT_VARIABLE grpc_pkg_config_status OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT grpc_pkg_config_status EQUAL 0)
    message(FATAL_ERROR "pkg-config --static --libs-only-l grpc++ protobuf failed: "
                        "${grpc_pkg_config_error} (tests/setup/install-deps.sh installs "
                        "libgrpc++-dev and libprotobuf-dev)")
  endif()
  separate_arguments(grpc_link_flags UNIX_COMMAND "${grpc_link_flags}")
  list(TRANSFORM grpc_link_flags REPLACE "^-l" "")
  set(archives)
  set(system_libraries)
  foreach(name IN LISTS grpc_link_flags)
    if(name MATCHES "^(grpc\\+\\+|grpc|gpr|upb|address_sorting|re2|cares|protobuf|absl_.+)$")
      luaform_static_archive(${name} archive)
      list(APPEND archives ${archive})
    else()
      list(APPEND system_libraries ${name})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES archives)
  list(REMOVE_DUPLICATES system_libraries)
  # The imported target still gives the include directories.
  target_include_directories(luaform_grpc SYSTEM
    INTERFACE $<TARGET_PROPERTY:gRPC::grpc++,INTERFACE_INCLUDE_DIRECTORIES>)
  string(REPLACE ";" "," group "${archives}")  # LINK_GROUP takes a comma-separated list
  target_link_libraries(luaform_grpc
    INTERFACE "$<LINK_GROUP:RESCAN,${group}>" ${system_libraries} Threads::Threads)
endif()

luaform_static_archive(lua5.4-c++ lua_archive)
target_include_directories(luaform_liblua SYSTEM INTERFACE ${LUA_INCLUDE_DIRS})
target_link_libraries(luaform_liblua INTERFACE ${lua_archive} m ${CMAKE_DL_LIBS})
