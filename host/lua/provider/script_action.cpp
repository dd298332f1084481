// ScriptState's actions: plan(config, client) and invoke(config, progress, client).
#include "host/lua/provider/script_state.h"

#include "host/lua/core/guarded.h"
#include "host/lua/core/value_conversion.h"
#include "host/lua/provider/call_scope.h"

namespace luaform::lua {

namespace {

// progress(message) in an action's invoke: shows the message in the CLI as the action goes.
int action_progress(lua_State* L) {
  const auto* progress =
      static_cast<const engine::ActionProgress*>(lua_touserdata(L, lua_upvalueindex(1)));
  (*progress)(luaL_checkstring(L, 1));
  return 0;
}

}  // namespace

engine::Diagnostics ScriptState::plan_action(const std::string& type_name,
                                             const engine::Value& config) {
  const Definition* definition = definition_of(engine::SchemaOwner::Action, type_name);
  engine::Diagnostics diags;
  if (definition == nullptr) return diags;
  const CallScope scope(call_context_, type_name);
  const auto error = protected_run(state_.get(), [&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    if (lua_getfield(S, -1, "plan") != LUA_TFUNCTION) return;
    push_value(S, config);
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
    lua_call(S, 2, 0);
  });
  return scope.report(error, {type_name + ": plan failed", definition->display});
}

engine::Diagnostics ScriptState::invoke_action(const std::string& type_name,
                                               const engine::Value& config,
                                               const engine::ActionProgress& progress) {
  const Definition* definition = definition_of(engine::SchemaOwner::Action, type_name);
  engine::Diagnostics diags;
  if (definition == nullptr) {
    diags.error(type_name + ": invoke failed", "no script defines action " + type_name);
    return diags;
  }
  const CallScope scope(call_context_, type_name);
  const auto error = protected_run(state_.get(), [&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    lua_getfield(S, -1, "invoke");
    push_value(S, config);
    lua_pushlightuserdata(S, const_cast<engine::ActionProgress*>(&progress));
    lua_pushcclosure(S, guarded<action_progress>, 1);
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
    lua_call(S, 3, 0);
  });
  return scope.report(error, {type_name + ": invoke failed", definition->display});
}

}  // namespace luaform::lua
