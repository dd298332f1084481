# Writes OUTPUT, a C++ source defining luaform::scaffold_templates(), from the files FILES (paths
# relative to ROOT, host/commands/scaffold). Run at build time, so editing a template rebuilds
# the host: cmake -DROOT=dir "-DFILES=a.lua;b/c.tf" -DOUTPUT=scaffold_templates.cpp -P this
set(delimiter "luaform_scaffold")
# Ordered by path, as std::string orders them, so that --scaffold names its files in that order.
list(SORT FILES COMPARE STRING)
set(entries "")
foreach(relative IN LISTS FILES)
  file(READ "${ROOT}/${relative}" text)
  # A checkout with CRLF line ends must not change what the scaffold writes.
  string(REPLACE "\r\n" "\n" text "${text}")
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${ROOT}/${relative} contains the raw string delimiter )${delimiter}\"")
  endif()
  string(APPEND entries "      {\"${relative}\", R\"${delimiter}(${text})${delimiter}\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp"
     "// Generated from host/commands/scaffold by host/commands/embed_scaffold.cmake; do not edit.\n"
     "#include \"host/commands/scaffold_templates.h\"\n\n"
     "namespace luaform {\n\n"
     "std::span<const ScaffoldTemplate> scaffold_templates() {\n"
     "  static const ScaffoldTemplate templates[] = {\n"
     "${entries}"
     "  };\n"
     "  return templates;\n"
     "}\n\n"
     "}  // namespace luaform\n")
# Only a changed output is written, so that an unrelated rebuild does not recompile it.
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
