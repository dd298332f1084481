// Options as native modules read them from a script's table: one reading, one wording of the
// error, for every module that takes a table of options.
#pragma once

#include <lua.hpp>

#include <optional>
#include <string>

namespace luaform::lua {

// The string at field `name` of the table at `table` (every byte, zeros included), or nullopt
// when the field is nil; throws std::runtime_error "<what>: <name> must be a string, not
// <type>" (without "<what>: " when `what` is empty) for any other value.
std::optional<std::string> string_field(lua_State* L, int table, const char* name,
                                        const std::string& what);

}  // namespace luaform::lua
