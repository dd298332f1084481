# Turns a provider directory into a release, in the layout registries and filesystem mirrors
# read:
#
#   OUT/terraform-provider-NAME_VERSION_OS_ARCH.zip   the host as terraform-provider-NAME_vVERSION
#                                                     (.exe on Windows), with the provider's Lua
#                                                     scripts beside it
#   OUT/terraform-provider-NAME_VERSION_manifest.json the protocol versions the host serves
#   OUT/terraform-provider-NAME_VERSION_SHA256SUMS    "<sha256>  <file>" for every zip of this
#                                                     version in OUT and the manifest, as
#                                                     `sha256sum` writes it
#   OUT/terraform-provider-NAME_VERSION_SHA256SUMS.sig  with -DGPG_KEY: a binary detached GPG
#                                                     signature of the sums, by that key
#
# Run as a script, once per target (each run adds its zip to the set and rewrites the sums):
#   cmake -DHOST=build/host/luaform -DPROVIDER_DIR=providers/NAME -DVERSION=1.2.3 \
#         [-DNAME=NAME] [-DOUT=dist] [-DOS_ARCH=linux_amd64] [-DCHECK_HOST=HOST] \
#         [-DGPG_KEY=KEY] -P host/packaging/package_provider.cmake
#
# The zip holds the top-level *.lua files and the *.lua files of subdirectories (lib/ and the
# like), with the OpenAPI descriptions and the files their $refs name (*.json, *.yaml, *.yml),
# not docs/, examples/, tests/ or a try/ directory, which are for people, not for the
# host, nor hidden ones (.luaform/, where a scaffold keeps the type definitions for editors).
# The Lua SDK is built into the host, so nothing else is needed at run time. The staged
# scripts must pass `--check`, run by the packaged host or, when that one cannot run on this
# machine (another platform), by CHECK_HOST, a host that can.
cmake_minimum_required(VERSION 3.25)

foreach(required HOST PROVIDER_DIR VERSION)
  if(NOT DEFINED ${required} OR "${${required}}" STREQUAL "")
    message(FATAL_ERROR "package_provider: -D${required}=... is required (see the top of "
                        "${CMAKE_CURRENT_LIST_FILE})")
  endif()
endforeach()
if(NOT VERSION MATCHES "^[0-9]+\\.[0-9]+\\.[0-9]+([-+][0-9A-Za-z.-]+)?$")
  message(FATAL_ERROR "package_provider: VERSION \"${VERSION}\" is not a version such as 1.2.3")
endif()
get_filename_component(PROVIDER_DIR "${PROVIDER_DIR}" ABSOLUTE)
get_filename_component(HOST "${HOST}" ABSOLUTE)
if(NOT EXISTS "${PROVIDER_DIR}/provider.lua")
  message(FATAL_ERROR "package_provider: ${PROVIDER_DIR} has no provider.lua")
endif()
if(NOT EXISTS "${HOST}" OR IS_DIRECTORY "${HOST}")
  message(FATAL_ERROR "package_provider: the host binary ${HOST} does not exist")
endif()
if(NOT DEFINED NAME OR NAME STREQUAL "")
  get_filename_component(NAME "${PROVIDER_DIR}" NAME)
endif()
if(NOT NAME MATCHES "^[a-z][a-z0-9]*$")
  message(FATAL_ERROR "package_provider: NAME \"${NAME}\" is not a provider name (lowercase "
                      "letters and digits)")
endif()
if(NOT DEFINED OUT OR OUT STREQUAL "")
  set(OUT "dist")
endif()
get_filename_component(OUT "${OUT}" ABSOLUTE)
if(NOT DEFINED OS_ARCH OR OS_ARCH STREQUAL "")
  # The target of the machine that builds; a release for another one needs a host built there.
  cmake_host_system_information(RESULT machine QUERY OS_PLATFORM)
  if(machine MATCHES "^(x86_64|amd64|AMD64)$")
    set(OS_ARCH "linux_amd64")
  elseif(machine MATCHES "^(aarch64|arm64)$")
    set(OS_ARCH "linux_arm64")
  else()
    message(FATAL_ERROR "package_provider: no Terraform target name for ${machine}; pass -DOS_ARCH")
  endif()
endif()

set(release "terraform-provider-${NAME}_${VERSION}")
set(stage "${OUT}/.stage-${NAME}")
file(REMOVE_RECURSE "${stage}")
file(MAKE_DIRECTORY "${stage}")

# The scripts and descriptions, with their directories.
file(GLOB_RECURSE scripts RELATIVE "${PROVIDER_DIR}" "${PROVIDER_DIR}/*.lua" "${PROVIDER_DIR}/*.json"
     "${PROVIDER_DIR}/*.yaml" "${PROVIDER_DIR}/*.yml")
set(entries "")
foreach(script IN LISTS scripts)
  if(script MATCHES "^(docs|examples|tests|try)/" OR script MATCHES "^\\." OR
     script MATCHES "/\\.")
    continue()
  endif()
  get_filename_component(subdir "${script}" DIRECTORY)
  file(COPY "${PROVIDER_DIR}/${script}" DESTINATION "${stage}/${subdir}")
  list(APPEND entries "${script}")
endforeach()

# The host under the name the CLI looks for in a release: terraform-provider-NAME_vVERSION.
set(binary "terraform-provider-${NAME}_v${VERSION}")
if(OS_ARCH MATCHES "^windows_")
  string(APPEND binary ".exe")
endif()
file(COPY_FILE "${HOST}" "${stage}/${binary}")
file(CHMOD "${stage}/${binary}" FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
     GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
list(APPEND entries "${binary}")
list(SORT entries)

# What goes into the zip must load on its own: the renamed host checks the staged scripts,
# and only those (variables pointing the host at another directory are left out).
if(NOT DEFINED CHECK_HOST OR CHECK_HOST STREQUAL "")
  set(check_command --unset=LUAFORM_PROVIDER_DIR --unset=LUAFORM_PROVIDER_NAME
                    "${stage}/${binary}")
else()
  get_filename_component(CHECK_HOST "${CHECK_HOST}" ABSOLUTE)
  set(check_command "LUAFORM_PROVIDER_DIR=${stage}" "LUAFORM_PROVIDER_NAME=${NAME}" "${CHECK_HOST}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env ${check_command} --check
                RESULT_VARIABLE checked OUTPUT_VARIABLE check_output ERROR_VARIABLE check_output)
if(NOT checked EQUAL 0)
  file(REMOVE_RECURSE "${stage}")
  message(FATAL_ERROR "package_provider: the staged provider does not pass --check:\n"
                      "${check_output}")
endif()

set(zip "${release}_${OS_ARCH}.zip")
file(MAKE_DIRECTORY "${OUT}")
file(REMOVE "${OUT}/${zip}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E tar cf "${OUT}/${zip}" --format=zip
          -- ${entries}
  WORKING_DIRECTORY "${stage}" RESULT_VARIABLE zipped)
if(NOT zipped EQUAL 0)
  message(FATAL_ERROR "package_provider: writing ${OUT}/${zip} failed")
endif()
file(REMOVE_RECURSE "${stage}")

# The manifest: which protocols the host serves (OpenTofu's registry assumes 5.0 alone when a
# release has none).
set(manifest "${release}_manifest.json")
file(WRITE "${OUT}/${manifest}" "{\"version\":1,\"metadata\":{\"protocol_versions\":[\"6.0\",\"5.0\"]}}\n")

# The sums cover every target's zip of this version packaged into OUT so far, and the manifest.
file(GLOB zips RELATIVE "${OUT}" "${OUT}/${release}_*.zip")
list(SORT zips)
set(sums "")
foreach(file IN LISTS zips manifest)
  file(SHA256 "${OUT}/${file}" digest)
  string(APPEND sums "${digest}  ${file}\n")
endforeach()
file(WRITE "${OUT}/${release}_SHA256SUMS" "${sums}")
file(REMOVE "${OUT}/${release}_SHA256SUMS.sig")
if(DEFINED GPG_KEY AND NOT GPG_KEY STREQUAL "")
  # Binary, not armoured: the registries read the raw OpenPGP packet.
  execute_process(COMMAND gpg --batch --yes --local-user "${GPG_KEY}" --detach-sign
                          --output "${OUT}/${release}_SHA256SUMS.sig" "${OUT}/${release}_SHA256SUMS"
                  RESULT_VARIABLE signed ERROR_VARIABLE sign_error)
  if(NOT signed EQUAL 0)
    message(FATAL_ERROR "package_provider: gpg could not sign with key \"${GPG_KEY}\":\n${sign_error}")
  endif()
endif()
message(STATUS "package_provider: wrote ${OUT}/${zip}; ${release}_SHA256SUMS covers ${zips}")
