// JSON documents as Lua values: objects become string-keyed tables, arrays become sequences,
// and JSON null becomes an absent key. Used to hand stored state to a script's upgrade
// functions as a plain table.
#pragma once

#include <lua.hpp>
#include <string>

namespace luaform::lua {

// Parses `text` and pushes it. Throws std::runtime_error when the text is not JSON, or when an
// array holds a null (a Lua sequence cannot hold nil, and dropping it would lose a position).
void push_json(lua_State* L, const std::string& text);

}  // namespace luaform::lua
