// The `d` a CRUD function receives: a userdata lending an engine::ResourceData to Lua for the
// duration of one call. Its methods are documented in lua-sdk/README.md.
#pragma once

#include <lua.hpp>

#include "host/engine/rules/resource_data.h"

namespace luaform::lua {

// Registers the metatable of `d` in the state. Runs inside a protected call.
void register_resource_data_type(lua_State* L);

// Pushes a `d` lending `data` to Lua until the lease is destroyed; from then on every method
// of that `d` raises an error instead of touching freed memory. Runs inside a protected call
// and must be destroyed before the pushed value leaves the Lua stack.
class ResourceDataLease {
 public:
  ResourceDataLease(lua_State* L, engine::ResourceData& data);
  ~ResourceDataLease() { *slot_ = nullptr; }
  ResourceDataLease(const ResourceDataLease&) = delete;
  ResourceDataLease& operator=(const ResourceDataLease&) = delete;

 private:
  engine::ResourceData** slot_;  // inside the userdata block, which Lua never moves
};

}  // namespace luaform::lua
