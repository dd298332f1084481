# LPeg, from Debian's source package (pinned in host/packaging/release/host_sources.lock and
# fetched once into the release cache by fetch_sources.sh), compiled as C++ like the host's Lua,
# so that its errors unwind as exceptions through C++ frames, into luaform_lpeg; the module
# itself is host/lua/modules/lpeg_module.cpp. The same code builds it in the development build
# and in every release build.
#
# One line is added to lpvm.c, before the matching machine dispatches an instruction: a call of
# luaform_lpeg_step, which keeps a match inside the budget Lua's string patterns have here (the
# operation's deadline, StopProvider, two seconds). The line it goes before must appear once,
# or the configure stops: a new LPeg version is read again before it is pinned.
set(LUAFORM_LPEG_SOURCE "" CACHE PATH
    "LPeg's unpacked source (empty: fetched by host/packaging/release/fetch_sources.sh)")
set(lpeg_lock ${PROJECT_SOURCE_DIR}/host/packaging/release/host_sources.lock)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${lpeg_lock})
if(LUAFORM_LPEG_SOURCE)
  set(lpeg_source ${LUAFORM_LPEG_SOURCE})
else()
  execute_process(
    COMMAND bash ${PROJECT_SOURCE_DIR}/host/packaging/release/fetch_sources.sh
            --host-source lua-lpeg
    OUTPUT_VARIABLE lpeg_source RESULT_VARIABLE lpeg_fetch_status
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT lpeg_fetch_status EQUAL 0)
    message(FATAL_ERROR "fetching LPeg's source failed (above); it needs apt-get, dpkg-source "
                        "(dpkg-dev) and this machine's Debian mirrors, or -DLUAFORM_LPEG_SOURCE "
                        "set to an unpacked lua-lpeg source package")
  endif()
endif()
if(NOT EXISTS ${lpeg_source}/lpvm.c)
  message(FATAL_ERROR "${lpeg_source} holds no LPeg source (lpvm.c)")
endif()

set(lpeg_dispatch "    switch ((Opcode)p->i.code) {")
file(READ ${lpeg_source}/lpvm.c lpeg_vm)
string(REPLACE "${lpeg_dispatch}" "" lpeg_vm_without "${lpeg_vm}")
string(LENGTH "${lpeg_vm}" lpeg_vm_length)
string(LENGTH "${lpeg_vm_without}" lpeg_vm_without_length)
string(LENGTH "${lpeg_dispatch}" lpeg_dispatch_length)
math(EXPR lpeg_dispatches "(${lpeg_vm_length} - ${lpeg_vm_without_length}) / ${lpeg_dispatch_length}")
if(NOT lpeg_dispatches EQUAL 1)
  message(FATAL_ERROR "${lpeg_source}/lpvm.c has ${lpeg_dispatches} lines \"${lpeg_dispatch}\", "
                      "not one: host/lua/lpeg.cmake adds the budget's step before it")
endif()
string(REPLACE "${lpeg_dispatch}" "    luaform_lpeg_step(L);\n${lpeg_dispatch}" lpeg_vm "${lpeg_vm}")
set(lpeg_vm "struct lua_State;\nvoid luaform_lpeg_step(lua_State* L);\n${lpeg_vm}")
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/lpeg/lpvm.c CONTENT "${lpeg_vm}" @ONLY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${lpeg_source}/lpvm.c)

set(lpeg_sources ${lpeg_source}/lpcap.c ${lpeg_source}/lpcode.c ${lpeg_source}/lpprint.c
                 ${lpeg_source}/lptree.c ${CMAKE_CURRENT_BINARY_DIR}/lpeg/lpvm.c)
set_source_files_properties(${lpeg_sources} PROPERTIES LANGUAGE CXX)
add_library(luaform_lpeg STATIC ${lpeg_sources})
target_include_directories(luaform_lpeg PRIVATE ${lpeg_source})
# Not luaform_warnings: this is LPeg's code as Debian ships it.
target_link_libraries(luaform_lpeg PRIVATE luaform_flags luaform_liblua)
