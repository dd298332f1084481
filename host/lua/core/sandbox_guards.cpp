#include "host/lua/core/sandbox_guards.h"

#include <optional>
#include <string>
#include <string_view>

#include "host/lua/core/sandbox.h"

namespace luaform::lua {
namespace {

bool must_end(lua_State* L) {
  return limit_reached(L).has_value();
}

// After pcall, xpcall or coroutine.resume returned: (false, error) while the call must end
// raises the stop or the timeout; anything else is returned as it is. The error caught is
// raised again when it is that very stop or timeout (it names the line the script had
// reached); an error of the body's own, caught after the deadline passed, gives way to the
// deadline's at the line of the pcall.
int reraise_if_ending(lua_State* L, int /*status*/, lua_KContext first) {
  const int base = static_cast<int>(first);
  if (lua_gettop(L) <= base || lua_toboolean(L, base + 1)) return lua_gettop(L) - base;
  const std::optional<std::string> reason = limit_reached(L);
  if (!reason) return lua_gettop(L) - base;
  size_t length = 0;
  const char* caught =
      lua_type(L, base + 2) == LUA_TSTRING ? lua_tolstring(L, base + 2, &length) : nullptr;
  if (caught != nullptr && std::string_view(caught, length).ends_with(*reason)) {
    lua_pushvalue(L, base + 2);
    return lua_error(L);
  }
  luaL_where(L, 1);
  lua_pushlstring(L, reason->data(), reason->size());
  lua_concat(L, 2);
  return lua_error(L);
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
