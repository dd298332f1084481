// Where a script called into native code, for messages raised by native modules.
#pragma once

#include <lua.hpp>

#include <string>

namespace luaform::lua {

// "file.lua:12: " of the innermost script line on the stack. SDK frames (chunks named
// "@lua-sdk/...") and C functions are skipped, so an error raised inside an SDK helper such as
// tf.wait_for names the line of the script that called the helper. "" when no script is
// running.
std::string script_where(lua_State* L);

}  // namespace luaform::lua
