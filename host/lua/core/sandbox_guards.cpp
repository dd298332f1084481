#include "host/lua/core/sandbox_guards.h"

#include "host/lua/core/sandbox.h"

namespace luaform::lua {
namespace {

bool must_end(lua_State* L) {
  return limit_reached(L).has_value();
}

// After pcall, xpcall or coroutine.resume returned: (false, error) while the call must end
// raises the error again; anything else is returned as it is.
int reraise_if_ending(lua_State* L, int /*status*/, lua_KContext first) {
  const int base = static_cast<int>(first);
  if (lua_gettop(L) > base && !lua_toboolean(L, base + 1) && must_end(L)) {
    lua_pushvalue(L, base + 2);
    return lua_error(L);
  }
  return lua_gettop(L) - base;
}

// Calls the original function (upvalue 1) with all arguments, through reraise_if_ending; a
// continuation keeps it yieldable, as the originals are.
int call_original(lua_State* L) {
  const int nargs = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_callk(L, nargs, LUA_MULTRET, 0, reraise_if_ending);
  return reraise_if_ending(L, LUA_OK, 0);
}

// xpcall's message handler, wrapping the script's (upvalue 1): not run once the call must end.
int bounded_handler(lua_State* L) {
  if (must_end(L)) return 1;  // the error as it is
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

int guarded_xpcall(lua_State* L) {
  luaL_checkany(L, 2);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, bounded_handler, 1);
  lua_replace(L, 2);
  return call_original(L);
}

int guarded_setmetatable(lua_State* L) {
  if (lua_istable(L, 2)) {
    lua_pushliteral(L, "__gc");
    if (lua_rawget(L, 2) != LUA_TNIL) {
      return luaL_error(L,
                        "setmetatable: __gc is not allowed in provider scripts (finalizers run "
                        "at any moment with the timeout and StopProvider off); release what "
                        "you hold where the function ends, or with a <close> variable");
    }
    lua_pop(L, 1);
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

// Replaces table[name] (the table on top of the stack) by `guard` closing over the original.
void replace(lua_State* L, const char* name, lua_CFunction guard) {
  lua_getfield(L, -1, name);
  lua_pushcclosure(L, guard, 1);
  lua_setfield(L, -2, name);
}

}  // namespace

void install_sandbox_guards(lua_State* L) {
  lua_pushglobaltable(L);
  replace(L, "pcall", call_original);
  replace(L, "xpcall", guarded_xpcall);
  replace(L, "setmetatable", guarded_setmetatable);
  lua_pop(L, 1);
  if (lua_getglobal(L, LUA_COLIBNAME) == LUA_TTABLE) replace(L, "resume", call_original);
  lua_pop(L, 1);
}

}  // namespace luaform::lua
