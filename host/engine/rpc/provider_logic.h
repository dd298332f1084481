// The engine's only view of provider-specific logic (the Lua scripts, or a C++ test double):
// schema, configure, and the CRUD callbacks. The engine applies Terraform's rules around it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/engine/rules/resource_data.h"
#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// Import: the resource's own import function (Schema::importable), given the user's
// import id; a logic that imports by id alone does nothing for it.
// Open, Renew, Close: an ephemeral resource's lifecycle. Renew and Close see only the private
// data Open (or the last Renew) left; a logic without them does nothing for them.
// PlanDestroy: a resource's check of a planned destroy (Schema::checks_destroy), given the
// stored state.
enum class Operation {
  Create,
  Read,
  Update,
  Delete,
  ReadData,
  CustomizeDiff,
  Import,
  Open,
  Renew,
  Close,
  PlanDestroy
};

const char* operation_name(Operation op);

// Why a provider-defined function call failed: the message, and which argument (0-based) is at
// fault when one is.
struct FunctionFailure {
  std::string text;
  std::optional<int64_t> argument;
};

// What a provider-defined function call gives back: the result, or the failure.
struct FunctionOutcome {
  Value result;
  std::optional<FunctionFailure> failure;
};

// A resource's stored state that a `moved` block hands to another resource type.
struct MoveSource {
  std::string provider_address;  // "registry.opentofu.org/luaform/example"
  std::string type_name;
  int64_t schema_version = 0;
  std::string raw_json;  // the stored attributes
  // The source's stored identity (JSON, empty when it has none) and its identity version.
  std::string identity_json{};
  int64_t identity_version = 0;
};

// What a plan function sees of the attribute at `path` (at the top of the resource, or in an
// element of a block or nested attribute): the objects holding it in the prior state, the
// configuration and the plan so far (null when there is none), and the whole planned resource.
// The values are the planner's own, lent for the call (an object is not copied per hook); at
// the top of the resource `planned` and `resource` are the same value.
struct PlanContext {
  AttributePath path;
  const Value& prior;
  const Value& config;
  const Value& planned;
  const Value& resource;
};

// The whole objects an attribute hook is judged in, lent for the call, so the hook can look
// beyond its own value (helper/schema hands such hooks the ResourceData): `resource` as the step
// has it (the configuration while validating, the plan while planning, what a read or an apply
// returned while comparing spellings) and, where the step has them, the configuration and the
// prior state (null where it has none).
struct HookObjects {
  const Value& resource;
  const Value& config;
  const Value& prior;
};

// One object a list resource found: its identity (of the resource's identity type), a name for
// people, and, when the logic has it at hand, the whole object (of the resource's type). A
// listed element that is not usable carries a warning instead, and the listing goes on.
struct ListedObject {
  Value identity;
  std::string display_name;
  std::optional<Value> object;
  Diagnostics diagnostics;
  // Where the logic handed it over ("list_server.lua:12: "), for a warning that leaves it out.
  std::string emitted_at = {};
};
// Runs an operation of the listed resource type on the logic's state that is listing, while it
// lists (import and read of a listed object, when the CLI asks for whole objects).
using ListedCall = std::function<Diagnostics(Operation, ResourceData&)>;
// Takes each object as it is found; false when no more are wanted (the limit is reached, or the
// CLI stopped reading), and the logic should stop listing.
using ListEmit = std::function<bool(ListedObject, const ListedCall&)>;
// What the CLI asked for: how many objects at most, and whether it wants whole objects.
struct ListOptions {
  int64_t limit = 0;
  bool include_resource = false;
};

// Reports an invoked action's progress to the CLI as it goes ("copying 3 of 10 files").
using ActionProgress = std::function<void(const std::string&)>;

// One operation of a state store on one of its states (all but Configure and States name one):
// what the engine asks and what the logic answers, in one place so that a store is one hook.
enum class StoreOp { Configure, States, Read, Write, Delete, Lock, Unlock };
const char* store_op_name(StoreOp op);
struct StoreCall {
  StoreOp op;
  std::string state_id = {};
  // Write's state, and Read's answer (nullopt: the store holds no such state).
  std::optional<std::string> state = std::nullopt;
  // Lock: what the CLI is about to do, and the id proposed for the lock; the logic may answer
  // its own. Unlock: the id the lock was taken with.
  std::string operation = {};
  std::string lock_id = {};
  // States' answer.
  std::vector<std::string> state_ids = {};
  // Configure's answer: the chunk size the store prefers, 0 for what the CLI proposes.
  int64_t chunk_size = 0;
};

// The logic's side of one RPC: every hook the RPC calls (validation, plan hooks, CRUD
// operations, upgrades, ...) runs on the same session, which holds what the logic needs for the
// length of the RPC (for the Lua scripts, one borrowed state, configured when a hook needs the
// client). A session serves one thread at a time. Its hooks may throw; the engine's Session
// (session.h) turns that into diagnostics, once, for every RPC.
class LogicSession {
 public:
  virtual ~LogicSession() = default;

  // Runs the validate functions declared for the attribute at `path` (one with has_validate) on
  // a known, non-null value of the configuration `around.resource`. Called before configure,
  // so it cannot use the client.
  virtual Diagnostics validate_value(SchemaOwner owner, const std::string& type_name,
                                     const AttributePath& path, const Value& value,
                                     const HookObjects& around) = 0;
  // True when the resource's diff_suppress / state_func for the attribute at `path` (one with
  // has_equivalence) counts `earlier` and `later` (in `around.resource`) as the same value. A
  // failing check counts them as different and explains why in `diags`.
  virtual bool same_value(const std::string& resource_type, const AttributePath& path,
                          const Value& earlier, const Value& later, const HookObjects& around,
                          Diagnostics& diags) = 0;
  // The normal forms the resource's element normaliser of the set at `path` (an attribute or
  // nested object with has_element_normaliser) gives each of `elements`, in order: elements
  // with equal normal forms are the same element. nullopt when it fails, explained in `diags`.
  virtual std::optional<Value::List> normal_forms(const std::string& resource_type,
                                                  const AttributePath& path,
                                                  const Value::List& elements,
                                                  const HookObjects& around,
                                                  Diagnostics& diags) = 0;
  // The resource's requires_replace_if for the attribute at `path` (one with
  // has_requires_replace_if): true when changing it from `prior` to `planned` (either may hold
  // unknown values; `around.resource` is the plan) replaces the object. A failing check
  // explains why in `diags`.
  virtual bool requires_replace(const std::string& resource_type, const AttributePath& path,
                                const Value& prior, const Value& planned, const HookObjects& around,
                                Diagnostics& diags) = 0;
  // The resource's plan function for the attribute `attribute` at `at.path` (one with
  // has_plan_function): the value to plan for it. nullopt keeps the plan's value.
  virtual std::optional<Value> plan_attribute(const std::string& resource_type,
                                              const Attribute& attribute, const PlanContext& at,
                                              Diagnostics& diags) = 0;
  // Turns a state stored under schema version `from_version` (older than the current one) into
  // a value of the current schema's type `current`. nullopt when the type declares no upgrade
  // functions: the stored state is then read as it is. Problems go to `diags`.
  virtual std::optional<Value> upgrade_state(const std::string& type_name, int64_t from_version,
                                             const std::string& raw_json, const Type& current,
                                             Diagnostics& diags) = 0;
  // Turns an identity stored under identity version `from_version` (older than the current
  // one) into a value of the current identity type `current`. nullopt when the type declares no
  // identity upgrades. Problems go to `diags`.
  virtual std::optional<Value> upgrade_identity(const std::string& type_name, int64_t from_version,
                                                const std::string& raw_json, const Type& current,
                                                Diagnostics& diags) = 0;
  // Turns `source` into a state of `target_type` (whose object type is `target`) with the
  // target's own function. nullopt without errors: it does not take states of that source.
  virtual std::optional<Value> move_state(const std::string& target_type, const MoveSource& source,
                                          const Type& target, Diagnostics& diags) = 0;
  // Runs one operation of a resource, data source or ephemeral resource against `d`.
  virtual Diagnostics call(Operation op, const std::string& type_name, ResourceData& d) = 0;
  // Runs the provider-defined function `name`, declared as `declared` in schema().functions, on
  // arguments already checked against its parameters. Functions never see the provider's
  // configuration: the CLI calls them before, and without, ConfigureProvider.
  virtual FunctionOutcome call_function(const std::string& name, const Function& declared,
                                        const std::vector<Value>& arguments) = 0;
  // Lists the remote objects of `resource_type` (whose schema as served is `resource`) that
  // `config` (the list block's, of schema().list_resources) selects, handing each to `emit` as
  // it is found. Errors end the listing; warnings do not.
  virtual Diagnostics list(const std::string& resource_type, const Schema& resource,
                           const Value& config, const ListOptions& options,
                           const ListEmit& emit) = 0;
  // The action's plan-time check of its wholly known configuration: warnings, or an error that
  // fails the plan. A logic without one has nothing to say.
  virtual Diagnostics plan_action(const std::string& action_type, const Value& config) = 0;
  // Runs the action with its configuration (wholly known), reporting progress as it goes.
  virtual Diagnostics invoke_action(const std::string& action_type, const Value& config,
                                    const ActionProgress& progress) = 0;
  // Runs `call` on the state store `store_type` configured with `config` (its `state_store`
  // block's, wholly known, defaults applied), filling in the call's answer.
  virtual Diagnostics call_store(const std::string& store_type, const Value& config,
                                 StoreCall& call) = 0;
};

class ProviderLogic {
 public:
  virtual ~ProviderLogic() = default;

  // Problems found while loading the logic (a script with a syntax error, a bad schema).
  // Reported as error diagnostics by every RPC that needs the schema.
  virtual const Diagnostics& load_diagnostics() const = 0;
  // What the logic says about itself beyond problems, for `--check` to print (a provider mapped
  // from an OpenAPI description lists the operations no type claims). None by default.
  virtual std::vector<std::string> load_notes() const { return {}; }
  // The schema as the logic declares it, with what each resource does besides CRUD
  // (Schema::has_update, importable, ...): data, not questions to the logic.
  virtual const ProviderSchema& schema() const = 0;
  // Called once per provider instance with the provider block's configuration.
  virtual Diagnostics configure(const Value& config) = 0;
  // The session of one RPC. Cheap: what it needs is taken when its first hook runs.
  virtual std::unique_ptr<LogicSession> open_session() = 0;
  // Asks running calls to stop as soon as they can (StopProvider).
  virtual void stop() = 0;
};

}  // namespace luaform::engine
