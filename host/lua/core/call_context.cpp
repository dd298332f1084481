#include "host/lua/core/call_context.h"

namespace luaform::lua {
namespace {

// The registry key under which a state keeps its CallContext pointer.
const char kContextKey = 0;

}  // namespace

void set_call_context(lua_State* L, CallContext* context) {
  lua_pushlightuserdata(L, context);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kContextKey);
}

CallContext* call_context_of(lua_State* L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kContextKey);
  auto* context = static_cast<CallContext*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  return context;
}

}  // namespace luaform::lua
