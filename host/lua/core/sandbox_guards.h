// Guards that keep a stopped or timed-out call from being kept alive by the script itself.
// Lua's pcall, xpcall and coroutine.resume catch every error, including the one the count hook
// raises when StopProvider came or the deadline passed; message handlers and finalizers run
// with hooks off, where nothing can end them. The sandbox replaces those functions:
// - pcall, xpcall and coroutine.resume give the error back as ever, except once the call is
//   stopped or past its deadline: then they raise it again, so it reaches the host;
// - xpcall's message handler is not run at all then (it would run with hooks off);
// - setmetatable refuses a metatable with __gc (finalizers run with hooks off, at any moment).
#pragma once

#include <lua.hpp>

namespace luaform::lua {

// Replaces pcall, xpcall, coroutine.resume and setmetatable in the state's globals; they ask
// sandbox.h's limit_reached whether the running call must end.
void install_sandbox_guards(lua_State* L);

}  // namespace luaform::lua
