// ScriptState's loading (each script run once, its definition kept in the registry, the
// schema read from it), configure, and the lookup of definitions every kind of call uses. The
// calls themselves are in script_call.cpp, script_attribute_hooks.cpp, script_list.cpp,
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
namespace {

// "tf.resource { ... }" for kind "resource": how a script should end.
std::string constructor_of(const std::string& kind) {
  return (kind == "function" ? std::string("tf.func") : "tf." + kind) + " { ... }";
}

// The duration at `table[field]` (a string such as "90s"), nullopt when the field is absent.
std::optional<engine::Duration> duration_field(lua_State* L, int table, const char* field,
                                               const std::string& where) {
  std::optional<engine::Duration> duration;
  if (lua_getfield(L, table, field) != LUA_TNIL) {
    if (lua_type(L, -1) == LUA_TSTRING) duration = engine::parse_duration(lua_tostring(L, -1));
    if (!duration) {
      throw std::runtime_error(where + " must be a duration such as \"90s\" or \"10m\"");
    }
  }
  lua_pop(L, 1);
  return duration;
}

// What a script returned, for the message saying it returned the wrong thing.
std::string describe_returned(lua_State* L, int index) {
  if (lua_istable(L, index)) {
    lua_getfield(L, index, "kind");
    std::string kind = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    lua_pop(L, 1);
    if (kind == "provider" || kind == "resource" || kind == "data_source" || kind == "ephemeral" ||
        kind == "function" || kind == "list_resource" || kind == "action") {
      return constructor_of(kind);
    }
    return "a plain table";
  }
  return luaL_typename(L, index);
}

}  // namespace

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
  limits_.deadline.reset();
}

void ScriptState::load(const std::filesystem::path& file, const char* kind,
                       const std::string& type_name, LoadReport* report) {
  lua_State* L = state_.get();
  const std::string display = display_name(file, scripts_.directory);
  const std::string expected = kind;
  std::optional<Definition> loaded;
  engine::Schema schema;
  engine::Function function;

  auto failure = protected_run(L, [&](lua_State* S) {
    std::string error;
    if (!load_script_file(S, file, display, error)) throw std::runtime_error(error);
    lua_call(S, 0, 1);
    bool tagged = false;
    if (lua_istable(S, -1)) {
      tagged = lua_getfield(S, -1, "kind") == LUA_TSTRING && lua_tostring(S, -1) == expected;
      lua_pop(S, 1);
    }
    if (!tagged) {
      throw std::runtime_error(display + ": the script must return " + constructor_of(expected) +
                               ", but it returned " + describe_returned(S, -1));
    }
    try {
      if (expected == "function") {
        function = read_function(S, -1);
      } else {
        // An ephemeral resource is never saved, so it needs no id; a list block's
        // configuration is filters.
        schema = read_schema(S, -1, expected == "resource" || expected == "data_source");
      }
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(display + ": " + e.what());
    }
    schema.has_update = lua_getfield(S, -1, "update") == LUA_TFUNCTION;
    schema.importable = lua_getfield(S, -2, "import") != LUA_TNIL;
    schema.customizes_diff = lua_getfield(S, -3, "customize_diff") == LUA_TFUNCTION;
    schema.moves_state = lua_getfield(S, -4, "move_state") == LUA_TFUNCTION;
    schema.checks_destroy = lua_getfield(S, -5, "plan_destroy") == LUA_TFUNCTION;
    lua_pop(S, 5);
    std::optional<engine::Duration> timeout;
    if (expected == "list_resource" || expected == "action") {
      timeout = duration_field(S, -1, "timeout", display + ": timeout");
    }
    if (expected == "provider") read_hook_limits(S);
    loaded = Definition{luaL_ref(S, LUA_REGISTRYINDEX), display, timeout};
  });

  if (failure || !loaded) {
    // `return tf.resource { ... }` is a tail call, so an error raised by tf.resource has no
    // line to point at; the file name at least says where to look.
    if (report) {
      const std::string why = prefixed(display, failure.value_or(display));
      if (expected == "provider") {
        // Without provider.lua's schema no provider block can be read: nothing works.
        report->diagnostics.error("Cannot load " + display, why);
      } else {
        // One broken script leaves out its own type only; the others serve. The CLI shows
        // this warning when it validates the provider, beside its own error for a
        // configuration that uses the type.
        report->diagnostics.warning(
            "Cannot load " + display + ": " + type_name + " is left out",
            why + "\n\nThe provider's other types work. Configurations that use " + type_name +
                " fail until " + display + " loads (`--check` lists every problem).");
        // An empty stand-in (not for functions, whose signature the CLI checks first).
        if (expected == "resource") {
          engine::Schema& stand_in = report->schema.resources[type_name];
          stand_in.has_update = false;
          stand_in.importable = false;
        }
        if (expected == "data_source") report->schema.data_sources[type_name] = {};
        if (expected == "ephemeral") report->schema.ephemeral_resources[type_name] = {};
        if (expected == "list_resource") report->schema.list_resources[type_name] = {};
        if (expected == "action") report->schema.actions[type_name] = {};
        const engine::SchemaOwner owner = expected == "list_resource"
                                              ? engine::SchemaOwner::ListResource
                                          : expected == "action" ? engine::SchemaOwner::Action
                                                                 : engine::SchemaOwner::Resource;
        report->schema.left_out[engine::left_out_key(owner, type_name)] = why;
      }
      report->failed.insert(file);
    }
    return;
  }
  const std::string kind_name = expected;
  if (kind_name == "provider") {
    provider_ = loaded;
    if (report) report->schema.provider = std::move(schema);
  } else if (kind_name == "resource") {
    resources_.emplace(type_name, *loaded);
    if (report) report->schema.resources[type_name] = std::move(schema);
  } else if (kind_name == "data_source") {
    data_sources_.emplace(type_name, *loaded);
    if (report) report->schema.data_sources[type_name] = std::move(schema);
  } else if (kind_name == "ephemeral") {
    ephemeral_.emplace(type_name, *loaded);
    if (report) report->schema.ephemeral_resources[type_name] = std::move(schema);
  } else if (kind_name == "list_resource") {
    lists_.emplace(type_name, *loaded);
    if (report) report->schema.list_resources[type_name] = std::move(schema);
  } else if (kind_name == "action") {
    actions_.emplace(type_name, *loaded);
    if (report) report->schema.actions[type_name] = std::move(schema);
  } else {
    functions_.emplace(type_name, *loaded);
    if (report) report->schema.functions[type_name] = std::move(function);
  }
}

void ScriptState::read_hook_limits(lua_State* S) {
  if (lua_getfield(S, -1, "hook_timeouts") == LUA_TTABLE) {
    const int limits = lua_gettop(S);
    const std::string where =
        display_name(*scripts_.provider_script, scripts_.directory) + ": hook_timeouts.";
    for (auto [name, limit] :
         {std::pair{"check", &hook_limits_.check}, std::pair{"plan", &hook_limits_.plan},
          std::pair{"hook", &hook_limits_.hook}}) {
      if (auto set = duration_field(S, limits, name, where + name)) *limit = *set;
    }
  }
  lua_pop(S, 1);
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

const engine::Schema* ScriptState::schema_of(engine::SchemaOwner owner,
                                             const std::string& type_name) const {
  if (served_ == nullptr) return nullptr;
  const auto find = [&](const auto& schemas) -> const engine::Schema* {
    auto it = schemas.find(type_name);
    return it == schemas.end() ? nullptr : &it->second;
  };
  switch (owner) {
    case engine::SchemaOwner::Provider:
      return &served_->provider;
    case engine::SchemaOwner::Resource:
      return find(served_->resources);
    case engine::SchemaOwner::DataSource:
      return find(served_->data_sources);
    case engine::SchemaOwner::EphemeralResource:
      return find(served_->ephemeral_resources);
    case engine::SchemaOwner::ListResource:
      return find(served_->list_resources);
    case engine::SchemaOwner::Action:
      return find(served_->actions);
  }
  return nullptr;
}

const ScriptState::Definition* ScriptState::definition_of(engine::SchemaOwner owner,
                                                          const std::string& type_name) const {
  if (owner == engine::SchemaOwner::Provider) return provider_ ? &*provider_ : nullptr;
  const auto& definitions = owner == engine::SchemaOwner::Resource       ? resources_
                            : owner == engine::SchemaOwner::DataSource   ? data_sources_
                            : owner == engine::SchemaOwner::ListResource ? lists_
                            : owner == engine::SchemaOwner::Action       ? actions_
                                                                         : ephemeral_;
  auto it = definitions.find(type_name);
  return it == definitions.end() ? nullptr : &it->second;
}

}  // namespace luaform::lua
