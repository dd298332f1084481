#include "host/lua/provider/script_state.h"

#include <stdexcept>
#include <utility>
#include <variant>
#include <vector>

#include "host/engine/value/duration.h"
#include "host/lua/core/call_context.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/json_conversion.h"
#include "host/lua/core/script_error.h"
#include "host/lua/core/script_where.h"
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

// Whose definition runs operation `op`.
engine::SchemaOwner owner_of(engine::Operation op) {
  switch (op) {
    case engine::Operation::ReadData:
      return engine::SchemaOwner::DataSource;
    case engine::Operation::Open:
    case engine::Operation::Renew:
    case engine::Operation::Close:
      return engine::SchemaOwner::EphemeralResource;
    default:
      return engine::SchemaOwner::Resource;
  }
}

const char* owner_name(engine::SchemaOwner owner) {
  switch (owner) {
    case engine::SchemaOwner::Provider:
      return "provider";
    case engine::SchemaOwner::Resource:
      return "resource";
    case engine::SchemaOwner::DataSource:
      return "data source";
    case engine::SchemaOwner::EphemeralResource:
      return "ephemeral resource";
    case engine::SchemaOwner::ListResource:
      return "list resource";
    case engine::SchemaOwner::Action:
      return "action";
  }
  return "definition";
}

// `message` starting with the script's name, as Lua's own errors already do.
std::string prefixed(const std::string& display, const std::string& message) {
  return message.starts_with(display + ":") ? message : display + ": " + message;
}

// The timeout that bounds `op` (create, read, update, delete; a data source's read), or nullopt
// for calls that have none.
std::optional<engine::Duration> timeout_of(engine::Operation op, const engine::ResourceData& d) {
  switch (op) {
    case engine::Operation::Create:
    case engine::Operation::Read:
    case engine::Operation::Update:
    case engine::Operation::Delete:
    case engine::Operation::ReadData:
      return d.timeout(engine::operation_name(op));
    default:
      return std::nullopt;
  }
}

// Sets the deadline of a call for its duration. A call made while another runs (a listed
// object's read) gives the outer call its own deadline back when it ends.
class DeadlineScope {
 public:
  DeadlineScope(RunLimits& limits, engine::Operation op, const engine::ResourceData& d)
      : limits_(limits), outer_(limits.deadline), outer_message_(limits.deadline_message) {
    if (auto timeout = timeout_of(op, d)) {
      limits_.deadline = std::chrono::steady_clock::now() + *timeout;
      limits_.deadline_message = std::string(engine::operation_name(op)) +
                                 " did not finish within its timeout of " +
                                 engine::format_duration(*timeout);
    }
  }
  ~DeadlineScope() {
    limits_.deadline = outer_;
    limits_.deadline_message = std::move(outer_message_);
  }
  DeadlineScope(const DeadlineScope&) = delete;
  DeadlineScope& operator=(const DeadlineScope&) = delete;

 private:
  RunLimits& limits_;
  std::optional<std::chrono::steady_clock::time_point> outer_;
  std::string outer_message_;
};

// Tells the native modules, for the duration of a call, which resource it is about, where the
// sensitive values tf.log must hide are, and collects what tf.warn and tf.fail report. A call
// made while another runs (a listed object's import and read) gives the outer call its context
// back when it ends.
class CallScope {
 public:
  CallScope(CallContext& context, const std::string& type_name, const engine::ResourceData& d)
      : context_(context), outer_(take(context)) {
    context_.resource_type = type_name;
    context_.schema = &d.schema();
    context_.operation_secrets = [&d] { return d.sensitive_texts(); };
  }
  // A call without a ResourceData (a provider-defined function, a listing, an action): no
  // schema, no secrets of its own.
  CallScope(CallContext& context, const std::string& name)
      : context_(context), outer_(take(context)) {
    context_.resource_type = name;
  }
  ~CallScope() {
    context_.resource_type = std::move(outer_.resource_type);
    context_.schema = outer_.schema;
    context_.operation_secrets = std::move(outer_.operation_secrets);
    context_.warnings = std::move(outer_.warnings);
    context_.failure = std::move(outer_.failure);
    context_.failure_message = std::move(outer_.failure_message);
    context_.failure_argument = outer_.failure_argument;
  }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

  // The call's warnings, and its error: the structured one of tf.fail when that is what ended
  // it, else the error `message`; either says where it was raised.
  engine::Diagnostics report(const std::optional<std::string>& message,
                             const FailedCall& call) const {
    engine::Diagnostics diags;
    for (const auto& warning : context_.warnings) diags.add(warning);
    if (message) {
      if (context_.failure && context_.failure_message == *message) {
        diags.add(with_place(*context_.failure, *message, call));
      } else {
        diags.add(script_error_diagnostic(*message, call));
      }
    }
    return diags;
  }

 private:
  // The per-call part of `context` (empty for none running), moved out and left cleared.
  static CallContext take(CallContext& context) {
    CallContext outer;
    outer.resource_type = std::move(context.resource_type);
    outer.schema = std::exchange(context.schema, nullptr);
    outer.operation_secrets = std::exchange(context.operation_secrets, nullptr);
    outer.warnings = std::exchange(context.warnings, {});
    outer.failure = std::exchange(context.failure, std::nullopt);
    outer.failure_message = std::exchange(context.failure_message, {});
    outer.failure_argument = std::exchange(context.failure_argument, std::nullopt);
    context.resource_type.clear();
    return outer;
  }
  CallContext& context_;
  CallContext outer_;  // the per-call part of what the context held before this call
};

}  // namespace

ScriptState::ScriptState(const ScriptSet& scripts, const std::atomic<uint64_t>* stops,
                         LoadReport* report, std::chrono::milliseconds load_timeout)
    : scripts_(scripts),
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
    loaded = Definition{luaL_ref(S, LUA_REGISTRYINDEX), display};
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

engine::Diagnostics ScriptState::configure(const engine::Value& config,
                                           std::vector<std::string> secrets) {
  call_context_.provider_secrets = std::move(secrets);
  engine::Diagnostics diags;
  if (!provider_) return diags;  // no provider.lua (or it failed to load): no client
  lua_State* L = state_.get();
  auto failure = protected_run(L, [&](lua_State* S) {
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
  if (failure) {
    diags.add(script_error_diagnostic(
        *failure, {provider_->display + ": configure failed", provider_->display}));
  }
  return diags;
}

engine::Diagnostics ScriptState::call(engine::Operation op, const std::string& type_name,
                                      engine::ResourceData& d) {
  const std::string failed = type_name + ": " + engine::operation_name(op) + " failed";
  const engine::SchemaOwner owner = owner_of(op);
  const Definition* found = definition_of(owner, type_name);
  if (found == nullptr) {
    engine::Diagnostics diags;
    diags.error(failed, "no script defines " + std::string(owner_name(owner)) + " " + type_name);
    return diags;
  }
  const Definition& definition = *found;
  const char* function = engine::operation_name(op);
  const DeadlineScope deadline(limits_, op, d);
  const CallScope scope(call_context_, type_name, d);
  const auto error = protected_run(state_.get(), [&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition.ref);
    if (lua_getfield(S, -1, function) != LUA_TFUNCTION) {
      // import = tf.import_by_id: the id is all there is to import. An ephemeral resource
      // without renew or close has nothing to keep alive or release.
      if (op == engine::Operation::Import || op == engine::Operation::Renew ||
          op == engine::Operation::Close) {
        return;
      }
      throw std::runtime_error(definition.display + " declares no " + function + " function");
    }
    ResourceDataLease lease(S, d);
    const int lease_index = lua_gettop(S);
    // exists(d, client) == false before a refresh means the object is gone: helper/schema's
    // Exists, mapped onto the read rule that an empty id removes the object from state.
    if (op == engine::Operation::Read) {
      if (lua_getfield(S, lease_index - 2, "exists") == LUA_TFUNCTION) {
        lua_pushvalue(S, lease_index);
        lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
        lua_call(S, 2, 1);
        const bool exists = lua_toboolean(S, -1) != 0;
        lua_pop(S, 1);
        if (!exists) {
          d.set_id("");
          return;
        }
      } else {
        lua_pop(S, 1);
      }
    }
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);  // nil for LUA_NOREF
    lua_call(S, 2, 0);
  });
  return scope.report(error, {failed, definition.display});
}

namespace {

// What the emit function a list call hands its script needs: where objects go, the types they
// convert to, and how to run the listed resource's import and read on this state.
struct Listing {
  const engine::ListEmit* emit;
  const engine::Type* identity;
  const engine::Type* object;
  engine::ListedCall run;
  bool stopped = false;
};

// emit { identity = {...}, display_name = "...", object = {...} } -> true while more are wanted.
// An element that does not convert is reported as a warning, and the listing goes on.
int list_emit(lua_State* L) {
  auto* listing = static_cast<Listing*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (listing->stopped) {
    lua_pushboolean(L, 0);
    return 1;
  }
  luaL_checktype(L, 1, LUA_TTABLE);
  engine::ListedObject listed;
  if (lua_getfield(L, 1, "display_name") == LUA_TSTRING) listed.display_name = lua_tostring(L, -1);
  lua_pop(L, 1);
  try {
    lua_getfield(L, 1, "identity");
    listed.identity = to_value(L, -1, *listing->identity, "identity");
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "object") != LUA_TNIL) {
      listed.object = to_value(L, -1, *listing->object, "object");
    }
    lua_pop(L, 1);
  } catch (const ConversionError& e) {
    const std::string name =
        listed.display_name.empty() ? std::string("an object") : "\"" + listed.display_name + "\"";
    listed.diagnostics.warning("A listed object is left out",
                               script_where(L) + name + " does not fit the resource: " + e.what());
  }
  const bool more = (*listing->emit)(std::move(listed), listing->run);
  listing->stopped = !more;
  lua_pushboolean(L, more ? 1 : 0);
  return 1;
}

}  // namespace

engine::Diagnostics ScriptState::list(const std::string& type_name, const engine::Schema& resource,
                                      const engine::Value& config,
                                      const engine::ListOptions& options,
                                      const engine::ListEmit& emit) {
  const Definition* definition = definition_of(engine::SchemaOwner::ListResource, type_name);
  engine::Diagnostics diags;
  if (definition == nullptr || !resource.identity) {
    diags.error(type_name + ": list failed", "no script lists " + type_name);
    return diags;
  }
  const engine::Type identity = resource.identity->implied_type();
  const engine::Type object = resource.block.implied_type();
  Listing listing{&emit, &identity, &object,
                  [this, &type_name](engine::Operation op, engine::ResourceData& d) {
                    return call(op, type_name, d);
                  }};
  const CallScope scope(call_context_, type_name);
  const auto error = protected_run(state_.get(), [&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    lua_getfield(S, -1, "list");
    // list(request, emit, client): request = { config =, limit =, include_resource = }.
    lua_createtable(S, 0, 3);
    push_value(S, config);
    lua_setfield(S, -2, "config");
    lua_pushinteger(S, options.limit);
    lua_setfield(S, -2, "limit");
    lua_pushboolean(S, options.include_resource ? 1 : 0);
    lua_setfield(S, -2, "include_resource");
    lua_pushlightuserdata(S, &listing);
    lua_pushcclosure(S, guarded<list_emit>, 1);
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
    lua_call(S, 3, 0);
  });
  diags.append(scope.report(error, {type_name + ": list failed", definition->display}));
  return diags;
}

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

engine::FunctionOutcome ScriptState::call_function(const std::string& name,
                                                   const std::vector<engine::Value>& arguments,
                                                   const engine::Function& declared) {
  engine::FunctionOutcome outcome;
  auto it = functions_.find(name);
  if (it == functions_.end()) {
    outcome.failure = engine::FunctionFailure{"no script defines function " + name, {}};
    return outcome;
  }
  const Definition& definition = it->second;
  const CallScope scope(call_context_, name);
  const auto error = protected_run(state_.get(), [&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition.ref);
    lua_getfield(S, -1, "run");
    luaL_checkstack(S, static_cast<int>(arguments.size()) + 4, "too many arguments");
    for (size_t i = 0; i < arguments.size(); ++i) {
      const engine::FunctionParameter* parameter = declared.parameter_for(i);
      const bool marked = parameter != nullptr && parameter->allow_unknown;
      push_value(S, arguments[i], marked ? Unknowns::Marked : Unknowns::Nil);
    }
    lua_call(S, static_cast<int>(arguments.size()), 1);
    try {
      outcome.result = to_value(S, -1, declared.returns, "result");
    } catch (const ConversionError& e) {
      throw std::runtime_error(definition.display + ": run returned a value that is not a " +
                               declared.returns.friendly_name() + ": " + e.what());
    }
  });
  if (error) {
    engine::FunctionFailure failure{one_line(*error, definition.display), {}};
    if (call_context_.failure && call_context_.failure_message == *error) {
      // tf.fail { summary = ..., argument = N }: N counts from 1, the protocol from 0.
      const engine::Diagnostic& made = *call_context_.failure;
      if (!made.summary.empty() && !made.detail.empty()) {
        failure.text = made.summary + ": " + failure.text;
      }
      if (call_context_.failure_argument) failure.argument = *call_context_.failure_argument - 1;
    }
    outcome.failure = std::move(failure);
  }
  return outcome;
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

namespace {

// Pushes the attribute spec of `definition` (on top of the stack, replaced) at `path`:
// definition.schema.disk.schema.size for the path disk[0].size.
void replace_with_attribute_spec(lua_State* S, const engine::AttributePath& path) {
  for (const auto& step : path) {
    const auto* name = std::get_if<engine::AttributeName>(&step);
    if (!name) continue;  // an element of a block: the same schema for every element
    if (lua_getfield(S, -1, "schema") != LUA_TTABLE ||
        lua_getfield(S, -1, name->name.c_str()) != LUA_TTABLE) {
      throw std::runtime_error("the schema has no attribute " + engine::path_to_string(path));
    }
    lua_replace(S, -3);
    lua_pop(S, 1);
  }
}

}  // namespace

engine::Diagnostics ScriptState::validate(engine::SchemaOwner owner, const std::string& type_name,
                                          const engine::AttributePath& path,
                                          const engine::Value& value) {
  engine::Diagnostics diags;
  const Definition* definition = definition_of(owner, type_name);
  if (!definition) return diags;
  const std::string where = engine::path_to_string(path);
  std::vector<std::string> messages;
  auto failure = protected_run(state_.get(), [&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    lua_getfield(S, -1, "validate");
    const int validators = lua_gettop(S);
    const bool single = lua_isfunction(S, validators);
    const lua_Integer n = single ? 1 : static_cast<lua_Integer>(lua_rawlen(S, validators));
    for (lua_Integer i = 1; i <= n; ++i) {
      if (single) {
        lua_pushvalue(S, validators);
      } else {
        lua_rawgeti(S, validators, i);
      }
      push_value(S, value);
      lua_pushlstring(S, where.data(), where.size());
      lua_call(S, 2, 1);
      if (lua_type(S, -1) == LUA_TSTRING) {
        messages.emplace_back(lua_tostring(S, -1));
      } else if (!lua_isnil(S, -1)) {
        messages.emplace_back(std::string("a validator returned a ") + luaL_typename(S, -1) +
                              " instead of nil or a message");
      }
      lua_pop(S, 1);
    }
  });
  for (const auto& message : messages) diags.error(message, {}, path);
  if (failure) {
    diags.add(script_error_diagnostic(
        *failure, {"Validation of \"" + where + "\" failed", definition->display}, path));
  }
  return diags;
}

bool ScriptState::same_value(const std::string& type_name, const engine::AttributePath& path,
                             const engine::Value& earlier, const engine::Value& later,
                             engine::Diagnostics& diags) {
  const Definition* definition = definition_of(engine::SchemaOwner::Resource, type_name);
  if (!definition) return false;
  bool same = false;
  auto failure = protected_run(state_.get(), [&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    const int spec = lua_gettop(S);
    // diff_suppress(address, old, new) -> true when the two are the same value.
    if (lua_getfield(S, spec, "diff_suppress") == LUA_TFUNCTION) {
      const std::string address = engine::path_to_address(path);
      lua_pushlstring(S, address.data(), address.size());
      push_value(S, earlier);
      push_value(S, later);
      lua_call(S, 3, 1);
      same = lua_toboolean(S, -1) != 0;
    }
    lua_pop(S, 1);
    // state_func(value) -> the normal form; equal normal forms are the same value.
    if (!same && lua_getfield(S, spec, "state_func") == LUA_TFUNCTION) {
      lua_pushvalue(S, -1);
      push_value(S, earlier);
      lua_call(S, 1, 1);
      lua_insert(S, -2);
      push_value(S, later);
      lua_call(S, 1, 1);
      same = lua_compare(S, -1, -2, LUA_OPEQ) != 0;
    }
  });
  if (failure) {
    diags.add(script_error_diagnostic(
        *failure,
        {"Comparing values of \"" + engine::path_to_string(path) + "\" failed", definition->display,
         "the values count as different"},
        path));
    return false;
  }
  return same;
}

std::optional<engine::Value> ScriptState::plan_attribute(const std::string& type_name,
                                                         const engine::Attribute& attribute,
                                                         const engine::PlanContext& at,
                                                         engine::Diagnostics& diags) {
  const Definition* definition = definition_of(engine::SchemaOwner::Resource, type_name);
  if (!definition) return std::nullopt;
  std::optional<engine::Value> value;
  const engine::AttributePath& path = at.path;
  auto failure = protected_run(state_.get(), [&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    if (lua_getfield(S, -1, "plan") != LUA_TFUNCTION) return;
    lua_createtable(S, 0, 5);
    const auto field = [&](const engine::Value& object, const char* name) {
      if (object.is_known() && !object.is_null()) {
        push_value(S, object.get_attribute(attribute.name), Unknowns::Marked);
        lua_setfield(S, -2, name);
      }
    };
    field(at.config, "config");
    field(at.prior, "state");
    field(at.planned, "planned");
    push_value(S, at.planned, Unknowns::Marked);
    lua_setfield(S, -2, "object");
    push_value(S, at.resource, Unknowns::Marked);
    lua_setfield(S, -2, "resource");
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
    lua_call(S, 2, 1);
    if (lua_isnil(S, -1)) return;  // keep the plan's value
    try {
      value = to_value(S, -1, attribute.type, attribute.name);
    } catch (const ConversionError& e) {
      throw std::runtime_error(definition->display + ": plan returned a value that does not " +
                               "fit: " + e.what());
    }
  });
  if (failure) {
    diags.add(script_error_diagnostic(
        *failure,
        {type_name + ": plan of \"" + engine::path_to_string(path) + "\" failed",
         definition->display},
        path));
    return std::nullopt;
  }
  return value;
}

bool ScriptState::requires_replace(const std::string& type_name, const engine::AttributePath& path,
                                   const engine::Value& prior, const engine::Value& planned,
                                   engine::Diagnostics& diags) {
  const Definition* definition = definition_of(engine::SchemaOwner::Resource, type_name);
  if (!definition) return false;
  bool replace = false;
  auto failure = protected_run(state_.get(), [&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    if (lua_getfield(S, -1, "requires_replace_if") != LUA_TFUNCTION) return;
    push_value(S, prior, Unknowns::Marked);
    push_value(S, planned, Unknowns::Marked);
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
    lua_call(S, 3, 1);
    replace = lua_toboolean(S, -1) != 0;
  });
  if (failure) {
    diags.add(script_error_diagnostic(
        *failure,
        {type_name + ": requires_replace_if of \"" + engine::path_to_string(path) + "\" failed",
         definition->display},
        path));
    return false;
  }
  return replace;
}

std::optional<engine::Value> ScriptState::upgrade(Stored what, const std::string& type_name,
                                                  int64_t from_version, int64_t to_version,
                                                  const std::string& raw_json,
                                                  const engine::Type& current,
                                                  engine::Diagnostics& diags) {
  auto it = resources_.find(type_name);
  if (it == resources_.end()) return std::nullopt;
  const Definition& definition = it->second;
  const bool identity = what == Stored::Identity;
  const std::string noun = identity ? "identity" : "state";
  const std::string table = identity ? "identity.upgrade" : "upgrade";
  std::optional<engine::Value> upgraded;
  bool declared = false;
  auto failure = protected_run(state_.get(), [&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition.ref);
    if (identity && lua_getfield(S, -1, "identity") != LUA_TTABLE) return;
    if (lua_getfield(S, -1, "upgrade") != LUA_TTABLE) return;
    declared = true;
    const int upgrades = lua_gettop(S);
    push_json(S, raw_json);
    // The messages are built outside the loop below: it runs once per version.
    const auto step = [&](int64_t v) { return table + "[" + std::to_string(v) + "]"; };
    const auto missing = [&](int64_t v) {
      return definition.display +
             (identity ? ": no identity upgrade function" : ": no upgrade function") +
             " for version " + std::to_string(v) + " (" + step(v) + " turns a version " +
             std::to_string(v) + " " + noun + " into version " + std::to_string(v + 1) + ")";
    };
    const auto not_a_table = [&](int64_t v, const char* got) {
      return definition.display + ": " + step(v) + " must return the upgraded " + noun +
             " table, not a " + got;
    };
    // upgrade[v] turns a state (or identity) of version v into one of version v + 1.
    for (int64_t v = from_version; v < to_version; ++v) {
      if (lua_rawgeti(S, upgrades, v) != LUA_TFUNCTION) throw std::runtime_error(missing(v));
      lua_insert(S, -2);                               // function, stored value
      lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);  // nil before configure
      lua_call(S, 2, 1);
      if (!lua_istable(S, -1)) throw std::runtime_error(not_a_table(v, luaL_typename(S, -1)));
    }
    try {
      upgraded = to_value(S, -1, current, type_name, ExtraKeys::Drop);
    } catch (const ConversionError& e) {
      throw std::runtime_error(definition.display + ": the upgraded " + noun +
                               " does not fit the " + (identity ? "identity" : "schema") + ": " +
                               e.what());
    }
  });
  if (failure) {
    diags.add(script_error_diagnostic(
        *failure, {"Upgrading the " + noun + " of " + type_name + " from " +
                       (identity ? "identity" : "schema") + " version " +
                       std::to_string(from_version) + " failed",
                   definition.display, "the stored " + noun + " is left as it was"}));
    return std::nullopt;
  }
  if (!declared) return std::nullopt;
  return upgraded;
}

std::optional<engine::Value> ScriptState::move_state(const std::string& type_name,
                                                     const engine::MoveSource& source,
                                                     const engine::Type& target,
                                                     engine::Diagnostics& diags) {
  auto it = resources_.find(type_name);
  if (it == resources_.end()) return std::nullopt;
  const Definition& definition = it->second;
  std::optional<engine::Value> moved;
  auto failure = protected_run(state_.get(), [&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition.ref);
    if (lua_getfield(S, -1, "move_state") != LUA_TFUNCTION) return;
    lua_createtable(S, 0, 6);
    lua_pushlstring(S, source.type_name.data(), source.type_name.size());
    lua_setfield(S, -2, "type");
    lua_pushlstring(S, source.provider_address.data(), source.provider_address.size());
    lua_setfield(S, -2, "provider");
    lua_pushinteger(S, source.schema_version);
    lua_setfield(S, -2, "version");
    push_json(S, source.raw_json);
    lua_setfield(S, -2, "state");
    if (!source.identity_json.empty()) {
      push_json(S, source.identity_json);
      lua_setfield(S, -2, "identity");
      lua_pushinteger(S, source.identity_version);
      lua_setfield(S, -2, "identity_version");
    }
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);  // nil before configure
    lua_call(S, 2, 1);
    if (lua_isnil(S, -1)) return;
    if (!lua_istable(S, -1)) {
      throw std::runtime_error(definition.display + ": move_state must return the new state " +
                               "table (or nil for a source it does not take), not a " +
                               luaL_typename(S, -1));
    }
    try {
      moved = to_value(S, -1, target, type_name, ExtraKeys::Drop);
    } catch (const ConversionError& e) {
      throw std::runtime_error(definition.display + ": the moved state does not fit the " +
                               "schema: " + e.what());
    }
  });
  if (failure) {
    diags.add(script_error_diagnostic(
        *failure, {"Moving " + source.type_name + " to " + type_name + " failed",
                   definition.display, "the stored state is left as it was"}));
    return std::nullopt;
  }
  return moved;
}

}  // namespace luaform::lua
