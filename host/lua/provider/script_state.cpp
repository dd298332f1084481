// ScriptState's making (the sandbox, then every script loaded: script_loading.cpp), configure,
// and the lookup of definitions every kind of call uses. The calls themselves are in
// script_call.cpp, script_attribute_hooks.cpp, script_list.cpp,
// script_action.cpp, script_function.cpp and script_stored_state.cpp.
#include "host/lua/provider/script_state.h"

#include <stdexcept>
#include <utility>
#include <vector>

#include "host/engine/rules/secret_scope.h"
#include "host/engine/value/duration.h"
#include "host/lua/core/call_context.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/script_error.h"
#include "host/lua/core/value_conversion.h"
#include "host/lua/modules/module_loader.h"
#include "host/lua/provider/resource_data_object.h"
#include "host/lua/provider/schema_reader.h"

namespace luaform::lua {

ScriptState::ScriptState(const ScriptSet& scripts, const std::atomic<uint64_t>* stops,
                         LoadReport* report, std::chrono::milliseconds load_timeout,
                         const engine::ProviderSchema* served)
    : scripts_(scripts),
      served_(served),
      limits_{stops, stops != nullptr ? stops->load() : 0, std::nullopt, {}},
      state_(new_sandboxed_state(&limits_)) {
  lua_State* L = state_.get();
  set_call_context(L, &call_context_);
  if (auto failure = protected_run(L, [this](lua_State* S) {
        install_module_loader(S, scripts_);
        register_resource_data_type(S);
      })) {
    throw std::runtime_error("cannot set up the Lua state: " + *failure);
  }
  seal_globals(L);
  // A top level that never returns must not hang GetProviderSchema: loading has a deadline,
  // and answers StopProvider like any call.
  limits_.deadline = std::chrono::steady_clock::now() + load_timeout;
  limits_.deadline_message = "loading did not finish within " +
                             engine::format_duration(load_timeout) +
                             " (LUAFORM_LOAD_TIMEOUT sets the limit)";
  if (scripts.provider_script) load(*scripts.provider_script, "provider", {}, report);
  for (const auto& [type_name, file] : scripts.resources) {
    load(file, "resource", type_name, report);
  }
  for (const auto& [type_name, file] : scripts.data_sources) {
    load(file, "data_source", type_name, report);
  }
  for (const auto& [type_name, file] : scripts.ephemeral_resources) {
    load(file, "ephemeral", type_name, report);
  }
  for (const auto& [name, file] : scripts.functions) load(file, "function", name, report);
  for (const auto& [type_name, file] : scripts.list_resources) {
    load(file, "list_resource", type_name, report);
  }
  for (const auto& [type_name, file] : scripts.actions) load(file, "action", type_name, report);
  for (const auto& [type_name, file] : scripts.state_stores) {
    load(file, "state_store", type_name, report);
  }
  limits_.deadline.reset();
}

CallDeadline ScriptState::deadline(HookKind kind, std::string what) const {
  switch (kind) {
    case HookKind::Check:
      return {std::move(what), hook_limits_.check,
              " (hook_timeouts.check in provider.lua sets it)"};
    case HookKind::Plan:
      return {std::move(what), hook_limits_.plan, " (hook_timeouts.plan in provider.lua sets it)"};
    case HookKind::Hook:
      break;
  }
  return {std::move(what), hook_limits_.hook, " (hook_timeouts.hook in provider.lua sets it)"};
}

engine::Diagnostics ScriptState::configure(const engine::Value& config,
                                           std::vector<std::string> secrets) {
  // The RPC configuring this state may have begun before the configuration did: its secrets
  // join the RPC's now, for configure's own log lines.
  for (const std::string& secret : secrets) engine::add_secret_in_scope(secret);
  provider_secrets_ = std::move(secrets);
  engine::Diagnostics diags;
  if (!provider_) return diags;  // no provider.lua (or it failed to load): no client
  auto call = invocation({"", served_ != nullptr ? &served_->provider : nullptr},
                         deadline(HookKind::Hook, "configure"));
  auto failure = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, provider_->ref);
    if (lua_getfield(S, -1, "configure") != LUA_TFUNCTION) return;
    const bool usable = config.is_known() && !config.is_null();
    if (usable) {
      push_value(S, config);
    } else {
      lua_newtable(S);
    }
    // configure(config, unknown): `unknown` names the attributes whose values are not known
    // yet (they read as nil in `config`, like unset ones), so a script can tell the two apart.
    lua_newtable(S);
    if (usable) {
      for (const auto& [name, value] : config.attributes()) {
        if (value.is_wholly_known()) continue;
        lua_pushboolean(S, 1);
        lua_setfield(S, -2, name.c_str());
      }
    }
    lua_call(S, 2, 1);
    luaL_unref(S, LUA_REGISTRYINDEX, client_ref_);
    client_ref_ = luaL_ref(S, LUA_REGISTRYINDEX);
  });
  diags.append(
      call.report(failure, {provider_->display + ": configure failed", provider_->display}));
  return diags;
}

ScriptState::Found ScriptState::find(engine::SchemaOwner owner, const std::string& type_name) {
  if (!last_found_ || last_found_->owner != owner || last_found_->type_name != type_name) {
    last_found_ = LastFound{owner, type_name, look_up(owner, type_name)};
  }
  return last_found_->found;
}

ScriptState::Found ScriptState::look_up(engine::SchemaOwner owner,
                                        const std::string& type_name) const {
  const auto in = [&](const auto& entries) -> const auto* {
    auto it = entries.find(type_name);
    return it == entries.end() ? nullptr : &it->second;
  };
  switch (owner) {
    case engine::SchemaOwner::Provider:
      return {provider_ ? &*provider_ : nullptr, served_ ? &served_->provider : nullptr};
    case engine::SchemaOwner::Resource:
      return {in(resources_), served_ ? in(served_->resources) : nullptr};
    case engine::SchemaOwner::DataSource:
      return {in(data_sources_), served_ ? in(served_->data_sources) : nullptr};
    case engine::SchemaOwner::EphemeralResource:
      return {in(ephemeral_), served_ ? in(served_->ephemeral_resources) : nullptr};
    case engine::SchemaOwner::ListResource:
      return {in(lists_), served_ ? in(served_->list_resources) : nullptr};
    case engine::SchemaOwner::Action:
      return {in(actions_), served_ ? in(served_->actions) : nullptr};
    case engine::SchemaOwner::StateStore:
      return {in(stores_), served_ ? in(served_->state_stores) : nullptr};
  }
  return {};
}

}  // namespace luaform::lua
