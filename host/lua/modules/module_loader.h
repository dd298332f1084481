// require() for provider scripts: the SDK (a lua-sdk/ override directory first, else the copy
// embedded in the host) and the provider's own directory, nothing else. Chunks are loaded as
// text with names relative to the provider directory, so errors read "lib/util.lua:3: ...".
#pragma once

#include <lua.hpp>

#include <filesystem>
#include <string>

#include "host/lua/core/script_set.h"

namespace luaform::lua {

// Replaces package.searchers, package.path and package.preload of a sandboxed state.
// Runs inside a protected call (raises Lua errors).
void install_module_loader(lua_State* L, const ScriptSet& scripts);

// How messages name `file`: relative to the provider directory when inside it, else in full.
std::string display_name(const std::filesystem::path& file, const std::filesystem::path& directory);

// Reads and compiles `file` (source text only), pushing the chunk. On failure pushes nothing and
// returns false with `error` set to a message that names the file ("x.lua:3: ..." for syntax).
bool load_script_file(lua_State* L, const std::filesystem::path& file, const std::string& display,
                      std::string& error);

}  // namespace luaform::lua
