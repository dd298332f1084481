// The module `require("luaform_documents")` returns: documents the provider directory holds
// (an OpenAPI description and the files its `$ref`s name), read as Lua tables.
//
//   read(name)   the document in file `name`, relative to the provider directory (never outside
//                it): JSON for .json, YAML for .yaml and .yml, else by its first character.
//                JSON null and YAML null are the json module's `null`. A file that cannot be
//                read or parsed raises an error naming it, with the line and column.
//   scripts()    the provider's Lua sources as { ["lib/x.lua"] = text, ... } (hidden folders
//                left out), for --check to see which operations scripts call by name.
//   digest(name) the lower-case hex SHA-256 of the bytes of file `name` (as read() finds it)
//   sdk_digest() the lower-case hex SHA-256 of the SDK modules the provider runs (the host's, or
//                the files in the provider directory that take their place)
// The two digests key what tf.openapi keeps between starts (luaform_openapi_cache).
#pragma once

#include <filesystem>
#include <lua.hpp>

namespace luaform::lua {

// Pushes the module's opener, bound to the provider directory `directory`.
void push_document_module_opener(lua_State* L, const std::filesystem::path& directory);

}  // namespace luaform::lua
