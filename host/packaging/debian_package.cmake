# CPack settings for a Debian package of the host: `cpack -G DEB` in a build directory writes
# luaform_VERSION_ARCH.deb with /usr/bin/luaform and its documentation. The package's Depends
# line comes from dpkg-shlibdeps (dpkg-dev, part of build-essential), so it names exactly the
# runtime libraries the binary links (OpenSSL, zlib, the C++ runtime; gRPC, protobuf and Lua are
# linked statically, see host/linked_libraries.cmake), plus libcurl, named below.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "luaform")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "luaform maintainers <luaform@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Terraform/OpenTofu providers written in Lua: the provider host")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "The luaform host speaks Terraform's provider plugin protocol (tfplugin5 and tfplugin6)\n\
and runs providers whose resources are Lua scripts. Copy or link /usr/bin/luaform next to the\n\
scripts as terraform-provider-NAME to make a provider.")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_FILE_NAME "DEB-DEFAULT")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libcurl is opened at run time (host/lua/modules/curl_library.cpp), so dpkg-shlibdeps cannot see it.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libcurl4 (>= 7.85)")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
include(CPack)
