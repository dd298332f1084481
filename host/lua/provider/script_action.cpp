// ScriptState's actions: plan(config, client) and invoke(config, progress, client).
#include "host/lua/provider/script_state.h"

#include "host/lua/core/value_conversion.h"

namespace luaform::lua {

namespace {

// progress(message) in an action's invoke: shows the message in the CLI as the action goes.
int action_progress(lua_State* L, void* target) {
  const auto* progress = static_cast<const engine::ActionProgress*>(target);
  (*progress)(luaL_checkstring(L, 1));
  return 0;
}

}  // namespace

engine::Diagnostics ScriptState::plan_action(const std::string& type_name,
                                             const engine::Value& config) {
  const Found found = find(engine::SchemaOwner::Action, type_name);
  const Definition* definition = found.definition;
  engine::Diagnostics diags;
  if (definition == nullptr) return diags;
  auto call =
      invocation({type_name, found.schema}, deadline(HookKind::Plan, "the plan of " + type_name));
  const auto error = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    if (lua_getfield(S, -1, "plan") != LUA_TFUNCTION) return;
    push_value(S, config);
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
    lua_call(S, 2, 0);
  });
  return call.report(error, {type_name + ": plan failed", definition->display});
}

engine::Diagnostics ScriptState::invoke_action(const std::string& type_name,
                                               const engine::Value& config,
                                               const engine::ActionProgress& progress) {
  const Found found = find(engine::SchemaOwner::Action, type_name);
  const Definition* definition = found.definition;
  engine::Diagnostics diags;
  if (definition == nullptr) {
    diags.error(type_name + ": invoke failed", "no script defines action " + type_name);
    return diags;
  }
  auto call = invocation(
      {type_name, found.schema},
      CallDeadline{"the invoke of " + type_name, definition->timeout.value_or(hook_limits_.run),
                   definition->timeout ? "" : " (the action's `timeout` sets it)"});
  const auto error = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    lua_getfield(S, -1, "invoke");
    push_value(S, config);
    call.lend(S, "progress", action_progress, const_cast<engine::ActionProgress*>(&progress));
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
    lua_call(S, 3, 0);
  });
  return call.report(error, {type_name + ": invoke failed", definition->display});
}

}  // namespace luaform::lua
