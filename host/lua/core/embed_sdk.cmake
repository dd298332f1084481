# Writes OUTPUT, a C++ source defining luaform::lua::embedded_sdk_modules(), from the Lua files
# in SOURCES (module name = file name without .lua). Run at build time, so editing the SDK
# rebuilds the host: cmake -DSOURCES=a.lua;b.lua -DOUTPUT=embedded_sdk.cpp -P embed_sdk.cmake
set(delimiter "luaform_sdk")
set(entries "")
foreach(source IN LISTS SOURCES)
  get_filename_component(module "${source}" NAME_WE)
  file(READ "${source}" text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${source} contains the raw string delimiter )${delimiter}\"")
  endif()
  string(APPEND entries
         "    {\"${module}\", \"@lua-sdk/${module}.lua\", R\"${delimiter}(${text})${delimiter}\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp"
     "// Generated from lua-sdk/*.lua by host/lua/core/embed_sdk.cmake; do not edit.\n"
     "#include \"host/lua/core/embedded_sdk.h\"\n\n"
     "namespace luaform::lua {\n\n"
     "std::span<const EmbeddedModule> embedded_sdk_modules() {\n"
     "  static const EmbeddedModule modules[] = {\n"
     "${entries}"
     "  };\n"
     "  return modules;\n"
     "}\n\n"
     "}  // namespace luaform::lua\n")
# Only a changed output is written, so that an unrelated rebuild does not recompile it.
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
