# How the release host links its dependencies: everything from one prefix that
# host/packaging/release/build_deps.sh built for the target (-DLUAFORM_RELEASE_DEPS=PREFIX, with
# host/packaging/release/toolchain.cmake as the toolchain). The prefix holds only static
# archives, so the host is one self-contained file: on Linux a static musl binary that needs
# nothing but the kernel. libcurl is linked in (LUAFORM_CURL_LINKED) instead of opened at run
# time, since a static binary cannot open shared libraries.
#
# It defines what the rest of the build uses from the packages in the development build:
# luaform_grpc, luaform_liblua, luaform_msgpack, OpenSSL::SSL/Crypto, nlohmann_json, the
# include directories of Lua and curl, and protobuf::protoc, which runs on this machine and so
# is Debian's; it must be the version of the protobuf library in the prefix.
if(NOT EXISTS "${LUAFORM_RELEASE_DEPS}/.complete")
  message(FATAL_ERROR "LUAFORM_RELEASE_DEPS=${LUAFORM_RELEASE_DEPS} is not a finished dependency "
                      "prefix: host/packaging/release/build_deps.sh TARGET builds one")
endif()
set(deps "${LUAFORM_RELEASE_DEPS}")

add_library(luaform_release_deps INTERFACE)
target_include_directories(luaform_release_deps SYSTEM
  INTERFACE "${deps}/include" "${deps}/include/lua5.4")
target_compile_definitions(luaform_release_deps INTERFACE CURL_STATICLIB LUAFORM_CURL_LINKED)
# lld and ld64 resolve symbols across all archives whatever their order, so no link group.
file(GLOB archives "${deps}/lib/*.a")
target_link_libraries(luaform_release_deps INTERFACE ${archives})
find_package(Threads REQUIRED)
target_link_libraries(luaform_release_deps INTERFACE Threads::Threads)
if(CMAKE_SYSTEM_NAME STREQUAL "Windows")
  target_link_libraries(luaform_release_deps
    INTERFACE ws2_32 crypt32 bcrypt iphlpapi advapi32 user32 dbghelp)
  # gRPC's headers include <windows.h>, whose macros (ERROR from wingdi.h, min and max) clash
  # with names in the generated protocol code and the standard library.
  target_compile_definitions(luaform_release_deps INTERFACE NOGDI NOMINMAX WIN32_LEAN_AND_MEAN)
endif()
# macOS: everything links against libSystem alone. The dependencies are built so that none needs
# an Apple framework (zig ships none): OpenSSL without Apple's random source, abseil without
# CoreFoundation, curl resolving through c-ares (build_deps.sh).

include(${CMAKE_CURRENT_LIST_DIR}/allocator.cmake)

foreach(name luaform_grpc luaform_liblua luaform_msgpack)
  add_library(${name} INTERFACE)
  target_link_libraries(${name} INTERFACE luaform_release_deps)
endforeach()
target_compile_definitions(luaform_msgpack INTERFACE MSGPACK_NO_BOOST MSGPACK_DEFAULT_API_VERSION=3)
foreach(name OpenSSL::SSL OpenSSL::Crypto nlohmann_json::nlohmann_json)
  add_library(${name} INTERFACE IMPORTED)
  target_link_libraries(${name} INTERFACE luaform_release_deps)
endforeach()
set(LUA_INCLUDE_DIRS "${deps}/include/lua5.4")
set(CURL_INCLUDE_DIRS "${deps}/include")
set(Protobuf_INCLUDE_DIRS "${deps}/include")

# The code generators run here.
find_program(LUAFORM_PROTOC protoc NO_CMAKE_FIND_ROOT_PATH REQUIRED)
execute_process(COMMAND "${LUAFORM_PROTOC}" --version OUTPUT_VARIABLE protoc_version
                OUTPUT_STRIP_TRAILING_WHITESPACE)
file(STRINGS "${deps}/include/google/protobuf/port_def.inc" library_version
     REGEX "^#define PROTOBUF_VERSION [0-9]+")
string(REGEX REPLACE ".* ([0-9]+)$" "\\1" library_version "${library_version}")
math(EXPR major "${library_version} / 1000000")
math(EXPR minor "${library_version} / 1000 % 1000")
math(EXPR patch "${library_version} % 1000")
if(NOT protoc_version MATCHES "[ .]${minor}\\.${patch}$")
  message(FATAL_ERROR "${LUAFORM_PROTOC} is \"${protoc_version}\", but the protobuf library in "
                      "${deps} is ${major}.${minor}.${patch}: generated code must match it")
endif()
add_executable(protobuf::protoc IMPORTED)
set_target_properties(protobuf::protoc PROPERTIES IMPORTED_LOCATION "${LUAFORM_PROTOC}")
find_program(LUAFORM_GRPC_CPP_PLUGIN grpc_cpp_plugin NO_CMAKE_FIND_ROOT_PATH REQUIRED)
