// Finds the provider's name and scripts from the path the host binary was started as.
#pragma once

#include <filesystem>
#include <string>

#include "host/lua/core/script_set.h"

namespace luaform {

// The provider name in "terraform-provider-NAME" or "terraform-provider-NAME_v1.2.3";
// empty when the file name does not follow that pattern.
std::string provider_name_from_file(const std::string& file_name);

// `invoked` is the binary's path as started (argv[0] resolved against PATH). Scripts are
// searched in the directory of that path and then along its symlink chain, so both a copy and
// a symlink of the host placed in the provider directory work, as does the CLI's plugin cache
// (which links or copies the whole package directory). LUAFORM_PROVIDER_DIR and
// LUAFORM_PROVIDER_NAME override what is found. The result names the provider and its
// directory; its script lists are empty until list_scripts fills them.
lua::ScriptSet locate_provider(const std::filesystem::path& invoked);

// `located` with the scripts in its directory listed: provider.lua, lua-sdk/ and the resource,
// data source, ephemeral resource and function scripts. Separate from locate_provider so that
// a served provider lists its directory after the handshake, not before it.
lua::ScriptSet list_scripts(const lua::ScriptSet& located);

// The executable's path for discovery: argv[0] when it names a file, else /proc/self/exe.
std::filesystem::path invoked_path(const char* argv0);

}  // namespace luaform
