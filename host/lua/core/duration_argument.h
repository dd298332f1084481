// Durations as scripts give them: a number of seconds or a string such as "30s", "2m" or
// "1h30m" (engine/value/duration.h), read once for every module that takes one.
#pragma once

#include <lua.hpp>

#include <string>

namespace luaform::lua {

// The seconds of the duration at `index`; throws std::runtime_error naming `what` when it is
// negative, not a duration string, or of another type.
double duration_seconds(lua_State* L, int index, const std::string& what);

}  // namespace luaform::lua
