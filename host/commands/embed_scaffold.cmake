# Writes OUTPUT, a C++ source defining luaform::scaffold_templates(), from the files FILES (paths
# relative to ROOT, host/commands/scaffold), which are templates, and COPIES, files of luaform's
# the scaffold carries as they are (DEST=SOURCE: where in the new directory, and the absolute
# path of the file). Run at build time, so editing one rebuilds the host:
#   cmake -DROOT=dir "-DFILES=a.lua;b/c.tf" "-DCOPIES=.luaform/x.lua=/src/x.lua"
#         -DOUTPUT=scaffold_templates.cpp -P this
set(delimiter "luaform_scaffold")
set(paths "")
foreach(relative IN LISTS FILES)
  list(APPEND paths "${relative}")
  set("source_${relative}" "${ROOT}/${relative}")
  set("copied_${relative}" "false")
endforeach()
foreach(copy IN LISTS COPIES)
  string(FIND "${copy}" "=" at)
  string(SUBSTRING "${copy}" 0 ${at} relative)
  math(EXPR at "${at} + 1")
  string(SUBSTRING "${copy}" ${at} -1 source)
  if(DEFINED "source_${relative}")
    message(FATAL_ERROR "${relative} is both a template and a copy of ${source}")
  endif()
  list(APPEND paths "${relative}")
  set("source_${relative}" "${source}")
  set("copied_${relative}" "true")
endforeach()
# Ordered by path, as std::string orders them, so that --scaffold names its files in that order.
list(SORT paths COMPARE STRING)
set(entries "")
foreach(relative IN LISTS paths)
  set(source "${source_${relative}}")
  file(READ "${source}" text)
  # A checkout with CRLF line ends must not change what the scaffold writes.
  string(REPLACE "\r\n" "\n" text "${text}")
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${source} contains the raw string delimiter )${delimiter}\"")
  endif()
  string(APPEND entries
         "      {\"${relative}\", R\"${delimiter}(${text})${delimiter}\", ${copied_${relative}}},\n")
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
