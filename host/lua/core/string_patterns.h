// string.find, string.match, string.gmatch and string.gsub for provider scripts: Lua 5.4's
// functions, argument for argument and result for result, over the budgeted matcher of
// pattern_matcher.h, so that no pattern runs past the operation's timeout, a StopProvider, or
// a fixed time (MatchBudget::kTimeLimit).
#pragma once

#include <lua.hpp>

namespace luaform::lua {

// Replaces the four pattern functions of the `string` library (global and strings' methods).
void install_budgeted_patterns(lua_State* L);

}  // namespace luaform::lua
