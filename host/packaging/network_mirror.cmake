# Adds one provider release to a provider network mirror: the layout `tofu init` and
# `terraform init` read from any static web server (a provider_installation network_mirror
# block), so that a company can serve its providers itself.
#
#   MIRROR/HOSTNAME/NAMESPACE/TYPE/index.json        {"versions":{"1.2.3":{},...}}
#   MIRROR/HOSTNAME/NAMESPACE/TYPE/1.2.3.json        {"archives":{"linux_amd64":{"url":...,
#                                                     "hashes":["h1:..."]},...}}
#   MIRROR/HOSTNAME/NAMESPACE/TYPE/terraform-provider-TYPE_1.2.3_OS_ARCH.zip
#
# Run as a script on a release set written by package_provider.cmake:
#   cmake -DDIST=dist -DNAME=localfs -DVERSION=1.2.3 -DMIRROR=mirror \
#         -DADDRESS=registry.example.com/acme/localfs -P host/packaging/network_mirror.cmake
#
# "h1:" is the hash the CLI records in .terraform.lock.hcl: SHA-256 over the lines
# "<sha256 of a file>  <its name in the zip>\n" of every file in the zip, sorted by name, in
# base64. The CLI checks each download against it.
cmake_minimum_required(VERSION 3.25)

foreach(required DIST NAME VERSION MIRROR ADDRESS)
  if(NOT DEFINED ${required} OR "${${required}}" STREQUAL "")
    message(FATAL_ERROR "network_mirror: -D${required}=... is required (see the top of "
                        "${CMAKE_CURRENT_LIST_FILE})")
  endif()
endforeach()
if(NOT ADDRESS MATCHES "^[a-z0-9.:-]+/[a-z0-9_-]+/${NAME}$")
  message(FATAL_ERROR "network_mirror: ADDRESS \"${ADDRESS}\" is not HOSTNAME/NAMESPACE/${NAME}")
endif()
get_filename_component(DIST "${DIST}" ABSOLUTE)
get_filename_component(MIRROR "${MIRROR}" ABSOLUTE)
set(release "terraform-provider-${NAME}_${VERSION}")
file(GLOB zips "${DIST}/${release}_*.zip")
if(NOT zips)
  message(FATAL_ERROR "network_mirror: ${DIST} has no ${release}_*.zip (package_provider.cmake "
                      "writes them)")
endif()
list(SORT zips)

# Standard base64 of a hexadecimal string (a SHA-256 here): three bytes at a time.
function(hex_to_base64 hex out)
  set(alphabet "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
  string(LENGTH "${hex}" length)
  set(encoded "")
  set(offset 0)
  while(offset LESS length)
    string(SUBSTRING "${hex}" ${offset} 6 chunk)
    string(LENGTH "${chunk}" digits)
    math(EXPR value "0x${chunk} << (4 * (6 - ${digits}))")
    math(EXPR characters "${digits} / 2 + 1")  # 3 bytes: 4 characters, 2: 3, 1: 2
    foreach(shift 18 12 6 0)
      if(characters GREATER 0)
        math(EXPR index "(${value} >> ${shift}) & 63")
        string(SUBSTRING "${alphabet}" ${index} 1 character)
        string(APPEND encoded "${character}")
        math(EXPR characters "${characters} - 1")
      else()
        string(APPEND encoded "=")
      endif()
    endforeach()
    math(EXPR offset "${offset} + 6")
  endwhile()
  set(${out} "${encoded}" PARENT_SCOPE)
endfunction()

set(directory "${MIRROR}/${ADDRESS}")
file(MAKE_DIRECTORY "${directory}")
set(archives "")
foreach(zip IN LISTS zips)
  get_filename_component(zip_name "${zip}" NAME)
  string(REGEX REPLACE "^${release}_(.+)\\.zip$" "\\1" os_arch "${zip_name}")
  set(unpacked "${directory}/.unpack-${os_arch}")
  file(REMOVE_RECURSE "${unpacked}")
  file(ARCHIVE_EXTRACT INPUT "${zip}" DESTINATION "${unpacked}")
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${unpacked}" "${unpacked}/*")
  list(SORT files)
  set(summary "")
  foreach(file IN LISTS files)
    file(SHA256 "${unpacked}/${file}" digest)
    string(APPEND summary "${digest}  ${file}\n")
  endforeach()
  file(REMOVE_RECURSE "${unpacked}")
  string(SHA256 summary_digest "${summary}")
  hex_to_base64("${summary_digest}" h1)
  file(COPY_FILE "${zip}" "${directory}/${zip_name}")
  if(archives)
    string(APPEND archives ",")
  endif()
  string(APPEND archives "\n    \"${os_arch}\": {\"url\": \"${zip_name}\", \"hashes\": [\"h1:${h1}\"]}")
endforeach()
file(WRITE "${directory}/${VERSION}.json" "{\n  \"archives\": {${archives}\n  }\n}\n")

# The index lists every version the mirror has, this one among them.
file(GLOB version_files RELATIVE "${directory}" "${directory}/*.json")
list(REMOVE_ITEM version_files "index.json")
list(SORT version_files)
set(versions "")
foreach(version_file IN LISTS version_files)
  string(REGEX REPLACE "\\.json$" "" version "${version_file}")
  if(versions)
    string(APPEND versions ", ")
  endif()
  string(APPEND versions "\"${version}\": {}")
endforeach()
file(WRITE "${directory}/index.json" "{\"versions\": {${versions}}}\n")
message(STATUS "network_mirror: ${ADDRESS} ${VERSION} in ${directory}")
