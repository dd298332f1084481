# Writes OUTPUT, a C++ source defining luaform::scaffold_templates(), from the files FILES (paths
# relative to ROOT, host/commands/scaffold), which are templates, and COPIES, files of luaform's
# the scaffold carries as they are (DEST=SOURCE: where in the new directory, and the absolute
# path of the file). Run at build time, so editing one rebuilds the host:
#   cmake -DROOT=dir "-DFILES=a.lua;b/c.tf" "-DCOPIES=.luaform/x.lua=/src/x.lua"
#         -DOUTPUT=scaffold_templates.cpp -P this
include("${CMAKE_CURRENT_LIST_DIR}/../embed_files.cmake")
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
set(rows "")
foreach(relative IN LISTS paths)
  list(APPEND rows "${source_${relative}}|\"${relative}\", {text}, ${copied_${relative}}")
endforeach()
embed_files(OUTPUT "${OUTPUT}" ORIGIN "host/commands/scaffold by host/commands/embed_scaffold.cmake"
            HEADER host/commands/scaffold_templates.h NAMESPACE luaform TYPE ScaffoldTemplate
            FUNCTION scaffold_templates DELIMITER luaform_scaffold ROWS ${rows})
