#include "host/lua/core/call_context.h"

#include "host/engine/rules/secret_scope.h"

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

std::vector<std::string> secrets_of_call(lua_State* L) {
  std::vector<std::string> secrets = engine::secrets_in_scope();
  if (const CallContext* context = call_context_of(L)) {
    secrets.insert(secrets.end(), context->provider_secrets.begin(),
                   context->provider_secrets.end());
    if (context->operation_secrets) {
      auto more = context->operation_secrets();
      secrets.insert(secrets.end(), more.begin(), more.end());
    }
  }
  return secrets;
}

}  // namespace luaform::lua
