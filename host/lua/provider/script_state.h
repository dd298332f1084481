// One lua_State with a provider's scripts loaded: the unit the pool lends to a call. It keeps
// each script's definition table and the client configure returned in the Lua registry.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "host/engine/rpc/provider_logic.h"
#include "host/engine/rules/resource_data.h"
#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/lua/core/call_context.h"
#include "host/lua/core/sandbox.h"
#include "host/lua/core/script_set.h"
#include "host/lua/provider/invocation.h"

namespace luaform::lua {

// What loading the scripts found out, recorded once, from the first state.
struct LoadReport {
  engine::Diagnostics diagnostics;
  engine::ProviderSchema schema;
  std::set<std::filesystem::path> failed;  // scripts that did not load
  std::vector<std::string> notes;          // provider.lua's `notes`, for --check
};

class ScriptState {
 public:
  // Creates the state and runs every script; a script that fails is left out and, when
  // `report` is given, described there. Throws std::runtime_error only when Lua cannot even
  // create the state.
  // `stops` counts the provider's StopProvider calls (see RunLimits); a stop ends loading too.
  // Loading all scripts may take `load_timeout`: a script still running then fails to load.
  // `served` is the provider's schema as loaded (the first state fills it): where tf.fail's
  // paths point in hooks that have no `d`. It must outlive the state.
  ScriptState(const ScriptSet& scripts, const std::atomic<uint64_t>* stops, LoadReport* report,
              std::chrono::milliseconds load_timeout, const engine::ProviderSchema* served);
  ScriptState(const ScriptState&) = delete;
  ScriptState& operator=(const ScriptState&) = delete;

  // Runs provider.lua's configure(config) and keeps what it returns as the client. `secrets`
  // are the configuration's sensitive texts, hidden from this state's log lines from now on.
  engine::Diagnostics configure(const engine::Value& config, std::vector<std::string> secrets);
  // Each hook of one attribute gets, last, the request `p` (the guide's "The request of an
  // attribute hook"): `path` (the address "disk.0.size"), the attribute's `config`, `state`
  // and `planned` values where the step has them, the object holding it as `object` and the
  // whole resource as `resource` (engine::HookObjects); unknown parts arrive as tf.unknown.
  //
  // Runs the validate functions, fn(value, path, p), of the attribute at `path` in the
  // definition of `owner` / `type_name` on `value`: each message a validator returns is an
  // error diagnostic.
  engine::Diagnostics validate(engine::SchemaOwner owner, const std::string& type_name,
                               const engine::AttributePath& path, const engine::Value& value,
                               const engine::HookObjects& around);
  // The resource's diff_suppress(address, old, new, p) / state_func(value, p) verdict on two
  // values of the attribute at `path` (see ProviderLogic::same_value).
  bool same_value(const std::string& type_name, const engine::AttributePath& path,
                  const engine::Value& earlier, const engine::Value& later,
                  const engine::HookObjects& around, engine::Diagnostics& diags);
  // The normal forms the resource's element_state_func(element, p) of the set at `path` gives
  // each of `elements` (see ProviderLogic::normal_forms): strings, numbers or booleans.
  std::optional<engine::Value::List> normal_forms(const std::string& type_name,
                                                  const engine::AttributePath& path,
                                                  const engine::Value::List& elements,
                                                  const engine::HookObjects& around,
                                                  engine::Diagnostics& diags);
  // The resource's plan(p, client) for `attribute` at `at.path`, where p's `object` is the
  // planned object holding it and `resource` the whole planned resource (see
  // ProviderLogic::plan_attribute).
  std::optional<engine::Value> plan_attribute(const std::string& type_name,
                                              const engine::Attribute& attribute,
                                              const engine::PlanContext& at,
                                              engine::Diagnostics& diags);
  // The resource's requires_replace_if(old, new, client, p) verdict for the attribute at
  // `path` (see ProviderLogic::requires_replace).
  bool requires_replace(const std::string& type_name, const engine::AttributePath& path,
                        const engine::Value& prior, const engine::Value& planned,
                        const engine::HookObjects& around, engine::Diagnostics& diags);
  // Runs the resource's upgrade functions (`upgrade`, or `identity.upgrade` for identities) on
  // a stored state or identity from `from_version` up to the current version `to_version` (see
  // ProviderLogic::upgrade_state and upgrade_identity).
  enum class Stored { State, Identity };
  std::optional<engine::Value> upgrade(Stored what, const std::string& type_name,
                                       int64_t from_version, int64_t to_version,
                                       const std::string& raw_json, const engine::Type& current,
                                       engine::Diagnostics& diags);
  // Runs the resource's move_state(source, client) on another resource's stored state (see
  // ProviderLogic::move_state).
  std::optional<engine::Value> move_state(const std::string& type_name,
                                          const engine::MoveSource& source,
                                          const engine::Type& target, engine::Diagnostics& diags);
  // Runs one operation. Its diagnostics: the warnings it reported (tf.warn) and, when it
  // failed, the error ("TYPE: OP failed", or tf.fail's summary and attribute path) whose
  // detail names the script and line.
  engine::Diagnostics call(engine::Operation op, const std::string& type_name,
                           engine::ResourceData& d);

  // Runs the list resource of `type_name` (schema `resource` as served): its list(request, emit,
  // client) with the list block's `config`, handing each object the script emits to `emit`
  // (where a listed object's import and read run on this state).
  engine::Diagnostics list(const std::string& type_name, const engine::Schema& resource,
                           const engine::Value& config, const engine::ListOptions& options,
                           const engine::ListEmit& emit);
  // An action's plan(config, client), when it declares one, and its invoke(config, progress,
  // client), where progress(message) reports how it is going.
  engine::Diagnostics plan_action(const std::string& type_name, const engine::Value& config);
  engine::Diagnostics invoke_action(const std::string& type_name, const engine::Value& config,
                                    const engine::ActionProgress& progress);
  // One operation of the state store `type_name` configured with `config` (its `state_store`
  // block's): configure(config, client), states(config, client), read(config, id, client),
  // write(config, id, state, client), delete(config, id, client), lock(config, id, info,
  // client) and unlock(config, id, lock_id, client); see engine::StoreCall.
  engine::Diagnostics call_store(const std::string& type_name, const engine::Value& config,
                                 engine::StoreCall& call);
  // Runs the provider-defined function `name`'s run(...) on `arguments`, converting what it
  // returns to the `declared` return type. A failure's text names the script and line;
  // tf.fail's `argument` says which argument is at fault.
  engine::FunctionOutcome call_function(const std::string& name,
                                        const std::vector<engine::Value>& arguments,
                                        const engine::Function& declared);

  // Which configuration this state was last configured with (see LuaProvider).
  uint64_t configured_generation = 0;
  // The sensitive texts of that configuration.
  const std::vector<std::string>& provider_secrets() const { return provider_secrets_; }

  // A call begins on this state: only a StopProvider that comes from now on ends it.
  void begin_call() {
    if (limits_.stops != nullptr) limits_.stops_before = limits_.stops->load();
    last_found_.reset();
  }

 private:
  struct Definition {
    int ref;              // the tagged table in the registry
    std::string display;  // the script's name in messages
    // A listing's, an action's or a state store's own `timeout`, when it declares one.
    std::optional<engine::Duration> timeout = std::nullopt;
  };

  // The definition of `type_name` and the schema it was served with (null where there is
  // none), looked up once per RPC: the hooks of one RPC concern one type, so what was found last
  // is kept until the next call begins (a listing's import and read of its objects ask for
  // another type, and find it in turn).
  struct Found {
    const Definition* definition = nullptr;
    const engine::Schema* schema = nullptr;
  };
  Found find(engine::SchemaOwner owner, const std::string& type_name);
  Found look_up(engine::SchemaOwner owner, const std::string& type_name) const;
  // What reading one definition gave: the definition (kept in the registry) and its schema or
  // signature.
  struct Loaded {
    std::optional<Definition> definition;
    engine::Schema schema;
    engine::Function function;
    std::vector<std::string> notes;  // provider.lua's
  };
  // Runs `file` and keeps the definition it returns as a `kind`; provider.lua's declared types
  // follow it.
  void load(const std::filesystem::path& file, const char* kind, const std::string& type_name,
            LoadReport* report);
  // Reads the definition on the top of S's stack as an `expected` (throws when it is not one).
  void read_definition(lua_State* S, const std::string& expected, const std::string& display,
                       Loaded& loaded);
  // Keeps what was loaded under `type_name`, or reports why it was not.
  void keep(const std::string& expected, const std::string& type_name, const std::string& display,
            const std::optional<std::string>& failure, Loaded& loaded, LoadReport* report);
  // The types provider.lua's `types` declares (resources, data sources, list resources).
  void load_declared_types(LoadReport* report);
  // Reads provider.lua's hook_timeouts (checked by the SDK) into hook_limits_.
  void read_hook_limits(lua_State* S);

  // A call into the scripts about `subject` within `deadline` (see invocation.h).
  enum class HookKind { Check, Plan, Hook };
  CallDeadline deadline(HookKind kind, std::string what) const;
  Invocation invocation(CallSubject subject, std::optional<CallDeadline> deadline) {
    return Invocation(state_.get(), call_context_, limits_, std::move(subject),
                      std::move(deadline));
  }

  const ScriptSet& scripts_;
  const engine::ProviderSchema* served_;
  HookLimits hook_limits_;
  RunLimits limits_;          // before state_: the state's hook reads it until the state is closed
  CallContext call_context_;  // before state_: its native modules read it
  StatePtr state_;
  std::vector<std::string> provider_secrets_;  // of the configuration it was configured with
  std::optional<Definition> provider_;
  std::map<std::string, Definition> resources_;
  std::map<std::string, Definition> data_sources_;
  std::map<std::string, Definition> ephemeral_;
  std::map<std::string, Definition> lists_;
  std::map<std::string, Definition> actions_;
  std::map<std::string, Definition> stores_;
  std::map<std::string, Definition> functions_;
  int client_ref_ = LUA_NOREF;
  struct LastFound {
    engine::SchemaOwner owner;
    std::string type_name;
    Found found;
  };
  std::optional<LastFound> last_found_;
};

}  // namespace luaform::lua
