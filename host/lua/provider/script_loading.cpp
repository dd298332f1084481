// ScriptState's loading: each script run once and its definition kept in the registry with the
// schema read from it, then the types provider.lua declares in `types` (a provider mapped
// from an OpenAPI description declares all of its types there) read the same way. A file's
// type wins over a declared one of the same name: that is how an author replaces a mapped type
// with a hand-written script.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "host/engine/value/duration.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/script_error.h"
#include "host/lua/modules/module_loader.h"
#include "host/lua/provider/schema_reader.h"
#include "host/lua/provider/script_state.h"

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
        kind == "function" || kind == "list_resource" || kind == "action" ||
        kind == "state_store") {
      return constructor_of(kind);
    }
    return "a plain table";
  }
  return luaL_typename(L, index);
}

// provider.lua's `notes` (a list of lines, checked by the SDK) at the top of L's stack.
std::vector<std::string> read_notes(lua_State* L) {
  std::vector<std::string> notes;
  if (lua_getfield(L, -1, "notes") == LUA_TTABLE) {
    for (lua_Integer i = 1; lua_rawgeti(L, -1, i) == LUA_TSTRING; ++i) {
      notes.emplace_back(lua_tostring(L, -1));
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return notes;
}

// The kinds provider.lua's `types` may declare: its field, and the kind of definition each
// entry must be.
struct DeclaredKind {
  const char* field;
  const char* kind;
  std::map<std::string, std::filesystem::path> ScriptSet::*files;
};
constexpr DeclaredKind kDeclaredKinds[] = {
    {"resources", "resource", &ScriptSet::resources},
    {"data_sources", "data_source", &ScriptSet::data_sources},
    {"list_resources", "list_resource", &ScriptSet::list_resources},
};

}  // namespace

void ScriptState::load(const std::filesystem::path& file, const char* kind,
                       const std::string& type_name, LoadReport* report) {
  lua_State* L = state_.get();
  const std::string display = display_name(file, scripts_.directory);
  const std::string expected = kind;
  Loaded loaded;
  auto failure = protected_run(L, [&](lua_State* S) {
    std::string error;
    if (!load_script_file(S, file, display, error)) throw std::runtime_error(error);
    lua_call(S, 0, 1);
    read_definition(S, expected, display, loaded);
  });
  keep(expected, type_name, display, failure, loaded, report);
  if (failure && report) report->failed.insert(file);
  if (!failure && expected == "provider") load_declared_types(report);
}

void ScriptState::read_definition(lua_State* S, const std::string& expected,
                                  const std::string& display, Loaded& loaded) {
  bool tagged = false;
  if (lua_istable(S, -1)) {
    tagged = lua_getfield(S, -1, "kind") == LUA_TSTRING && lua_tostring(S, -1) == expected;
    lua_pop(S, 1);
  }
  if (!tagged) {
    throw std::runtime_error(display + ": the script must return " + constructor_of(expected) +
                             ", but it returned " + describe_returned(S, -1));
  }
  // A declared type its maker could not make (tf.openapi's, for a construct of the description
  // it cannot map) says why instead of holding a schema.
  if (lua_getfield(S, -1, "load_error") == LUA_TSTRING) {
    throw std::runtime_error(display + ": " + lua_tostring(S, -1));
  }
  lua_pop(S, 1);
  engine::Schema& schema = loaded.schema;
  try {
    if (expected == "function") {
      loaded.function = read_function(S, -1);
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
  if (expected == "list_resource" || expected == "action" || expected == "state_store") {
    timeout = duration_field(S, -1, "timeout", display + ": timeout");
  }
  if (expected == "provider") {
    read_hook_limits(S);
    loaded.notes = read_notes(S);
  }
  loaded.definition = Definition{luaL_ref(S, LUA_REGISTRYINDEX), display, timeout};
}

void ScriptState::keep(const std::string& expected, const std::string& type_name,
                       const std::string& display, const std::optional<std::string>& failure,
                       Loaded& loaded, LoadReport* report) {
  if (failure || !loaded.definition) {
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
        if (expected == "state_store") report->schema.state_stores[type_name] = {};
        const engine::SchemaOwner owner =
            expected == "list_resource" ? engine::SchemaOwner::ListResource
            : expected == "action"      ? engine::SchemaOwner::Action
            : expected == "state_store" ? engine::SchemaOwner::StateStore
                                        : engine::SchemaOwner::Resource;
        report->schema.left_out[engine::left_out_key(owner, type_name)] = why;
      }
    }
    return;
  }
  Definition definition = std::move(*loaded.definition);
  if (expected == "provider") {
    provider_ = std::move(definition);
    if (report) report->schema.provider = std::move(loaded.schema);
    if (report) report->notes = std::move(loaded.notes);
  } else if (expected == "resource") {
    resources_.emplace(type_name, std::move(definition));
    if (report) report->schema.resources[type_name] = std::move(loaded.schema);
  } else if (expected == "data_source") {
    data_sources_.emplace(type_name, std::move(definition));
    if (report) report->schema.data_sources[type_name] = std::move(loaded.schema);
  } else if (expected == "ephemeral") {
    ephemeral_.emplace(type_name, std::move(definition));
    if (report) report->schema.ephemeral_resources[type_name] = std::move(loaded.schema);
  } else if (expected == "list_resource") {
    lists_.emplace(type_name, std::move(definition));
    if (report) report->schema.list_resources[type_name] = std::move(loaded.schema);
  } else if (expected == "action") {
    actions_.emplace(type_name, std::move(definition));
    if (report) report->schema.actions[type_name] = std::move(loaded.schema);
  } else if (expected == "state_store") {
    stores_.emplace(type_name, std::move(definition));
    if (report) report->schema.state_stores[type_name] = std::move(loaded.schema);
  } else {
    functions_.emplace(type_name, std::move(definition));
    if (report) report->schema.functions[type_name] = std::move(loaded.function);
  }
}

void ScriptState::load_declared_types(LoadReport* report) {
  lua_State* L = state_.get();
  for (const DeclaredKind& declared : kDeclaredKinds) {
    // The names first (the SDK checked that each is a Terraform name and each entry a tagged
    // table), then each definition on its own, so one bad type leaves out only itself.
    std::vector<std::string> names;
    auto listing = protected_run(L, [&](lua_State* S) {
      lua_rawgeti(S, LUA_REGISTRYINDEX, provider_->ref);
      if (lua_getfield(S, -1, "types") != LUA_TTABLE) return;
      if (lua_getfield(S, -1, declared.field) != LUA_TTABLE) return;
      lua_pushnil(S);
      while (lua_next(S, -2) != 0) {
        if (lua_type(S, -2) == LUA_TSTRING) names.emplace_back(lua_tostring(S, -2));
        lua_pop(S, 1);
      }
    });
    if (listing) {
      if (report) report->diagnostics.error("Cannot load " + provider_->display, *listing);
      return;
    }
    for (const std::string& name : names) {
      const std::string type_name = scripts_.provider_name + "_" + name;
      // A script file of the same type replaces the declared one.
      if ((scripts_.*declared.files).contains(type_name)) continue;
      const std::string display =
          provider_->display + " (types." + declared.field + "." + name + ")";
      Loaded loaded;
      auto failure = protected_run(L, [&](lua_State* S) {
        lua_rawgeti(S, LUA_REGISTRYINDEX, provider_->ref);
        lua_getfield(S, -1, "types");
        lua_getfield(S, -1, declared.field);
        lua_getfield(S, -1, name.c_str());
        read_definition(S, declared.kind, display, loaded);
      });
      keep(declared.kind, type_name, display, failure, loaded, report);
    }
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

}  // namespace luaform::lua
