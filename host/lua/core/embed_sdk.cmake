# Writes OUTPUT, a C++ source defining luaform::lua::embedded_sdk_modules(), from the Lua files
# in SOURCES (module name = file name without .lua). Run at build time, so editing the SDK
# rebuilds the host: cmake -DSOURCES=a.lua;b.lua -DOUTPUT=embedded_sdk.cpp -P embed_sdk.cmake
include("${CMAKE_CURRENT_LIST_DIR}/../../embed_files.cmake")
set(rows "")
foreach(source IN LISTS SOURCES)
  get_filename_component(module "${source}" NAME_WE)
  list(APPEND rows "${source}|\"${module}\", \"@lua-sdk/${module}.lua\", {text}")
endforeach()
embed_files(OUTPUT "${OUTPUT}" ORIGIN "lua-sdk/*.lua by host/lua/core/embed_sdk.cmake"
            HEADER host/lua/core/embedded_sdk.h NAMESPACE luaform::lua TYPE EmbeddedModule
            FUNCTION embedded_sdk_modules DELIMITER luaform_sdk ROWS ${rows})
