// The `d` a CRUD function receives: a userdata lending an engine::ResourceData to Lua for the
// duration of one call. Its methods are documented in lua-sdk/README.md.
#pragma once

#include <lua.hpp>

#include "host/engine/rules/resource_data.h"

namespace luaform::lua {

// Registers the metatable of `d` in the state. Runs inside a protected call.
void register_resource_data_type(lua_State* L);

// Pushes a `d` lending `data` to Lua, and returns the slot in its block that points to it: once
// the slot is cleared (Invocation::expire_at_end does it when the call ends) every method of
// that `d` raises an error instead of touching freed memory. Runs inside a protected call.
void** push_resource_data(lua_State* L, engine::ResourceData& data);

}  // namespace luaform::lua
