# embed_files(): the one generator behind every file the host carries inside itself (the SDK's
# modules, the scaffold's templates). Included by the -P scripts that say which files, and how
# each becomes one entry of a static table in a generated C++ source:
#
#   embed_files(OUTPUT out.cpp ORIGIN "lua-sdk/*.lua by ..." HEADER host/x/y.h NAMESPACE a::b
#               TYPE Entry FUNCTION entries DELIMITER tag
#               ROWS "/abs/a.lua|\"a\", {text}" "/abs/b.lua|\"b\", {text}")
#
# Each row is a file's path and, after "|", the entry's initializer fields, in which {text}
# stands for the file's contents as a raw string literal (CRLF line ends read as LF, so a
# checkout's line ends never change the host). The function returns std::span<const TYPE>.
# Only a changed output is written, so an unrelated rebuild does not recompile it.
function(embed_files)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "OUTPUT;ORIGIN;HEADER;NAMESPACE;TYPE;FUNCTION;DELIMITER"
                        "ROWS")
  set(entries "")
  foreach(row IN LISTS arg_ROWS)
    string(FIND "${row}" "|" at)
    string(SUBSTRING "${row}" 0 ${at} source)
    math(EXPR at "${at} + 1")
    string(SUBSTRING "${row}" ${at} -1 fields)
    file(READ "${source}" text)
    string(REPLACE "\r\n" "\n" text "${text}")
    string(FIND "${text}" ")${arg_DELIMITER}\"" clash)
    if(NOT clash EQUAL -1)
      message(FATAL_ERROR "${source} contains the raw string delimiter )${arg_DELIMITER}\"")
    endif()
    string(REPLACE "{text}" "R\"${arg_DELIMITER}(${text})${arg_DELIMITER}\"" entry "${fields}")
    string(APPEND entries "    {${entry}},\n")
  endforeach()
  file(WRITE "${arg_OUTPUT}.tmp"
       "// Generated from ${arg_ORIGIN}; do not edit.\n"
       "#include \"${arg_HEADER}\"\n\n"
       "namespace ${arg_NAMESPACE} {\n\n"
       "std::span<const ${arg_TYPE}> ${arg_FUNCTION}() {\n"
       "  static const ${arg_TYPE} entries[] = {\n"
       "${entries}"
       "  };\n"
       "  return entries;\n"
       "}\n\n"
       "}  // namespace ${arg_NAMESPACE}\n")
  file(COPY_FILE "${arg_OUTPUT}.tmp" "${arg_OUTPUT}" ONLY_IF_DIFFERENT)
  file(REMOVE "${arg_OUTPUT}.tmp")
endfunction()
