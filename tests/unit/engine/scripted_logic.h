// A ProviderLogic whose schema and CRUD callbacks are given by each test, so the engine's
// rules can be specified without Lua or gRPC.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "host/engine/rpc/provider_logic.h"
#include "host/engine/rpc/provider_service.h"

namespace luaform::engine::testing {

// Every RPC's session forwards to the logic that opened it (a double is its own session).
struct ForwardingSession : LogicSession {
  explicit ForwardingSession(LogicSession& to) : to(to) {}
  LogicSession& to;
  Diagnostics validate_value(SchemaOwner owner, const std::string& type_name,
                             const AttributePath& path, const Value& value,
                             const HookObjects& around) override {
    return to.validate_value(owner, type_name, path, value, around);
  }
  bool same_value(const std::string& type_name, const AttributePath& path, const Value& earlier,
                  const Value& later, const HookObjects& around, Diagnostics& diags) override {
    return to.same_value(type_name, path, earlier, later, around, diags);
  }
  std::optional<Value::List> normal_forms(const std::string& type_name, const AttributePath& path,
                                          const Value::List& elements, const HookObjects& around,
                                          Diagnostics& diags) override {
    return to.normal_forms(type_name, path, elements, around, diags);
  }
  bool requires_replace(const std::string& type_name, const AttributePath& path, const Value& prior,
                        const Value& planned, const HookObjects& around,
                        Diagnostics& diags) override {
    return to.requires_replace(type_name, path, prior, planned, around, diags);
  }
  std::optional<Value> plan_attribute(const std::string& type_name, const Attribute& attribute,
                                      const PlanContext& at, Diagnostics& diags) override {
    return to.plan_attribute(type_name, attribute, at, diags);
  }
  std::optional<Value> upgrade_state(const std::string& type_name, int64_t from_version,
                                     const std::string& raw_json, const Type& current,
                                     Diagnostics& diags) override {
    return to.upgrade_state(type_name, from_version, raw_json, current, diags);
  }
  std::optional<Value> upgrade_identity(const std::string& type_name, int64_t from_version,
                                        const std::string& raw_json, const Type& current,
                                        Diagnostics& diags) override {
    return to.upgrade_identity(type_name, from_version, raw_json, current, diags);
  }
  std::optional<Value> move_state(const std::string& type_name, const MoveSource& source,
                                  const Type& target, Diagnostics& diags) override {
    return to.move_state(type_name, source, target, diags);
  }
  Diagnostics call(Operation op, const std::string& type_name, ResourceData& d) override {
    return to.call(op, type_name, d);
  }
  FunctionOutcome call_function(const std::string& name, const Function& declared,
                                const std::vector<Value>& arguments) override {
    return to.call_function(name, declared, arguments);
  }
  Diagnostics list(const std::string& type_name, const Schema& resource, const Value& config,
                   const ListOptions& options, const ListEmit& emit) override {
    return to.list(type_name, resource, config, options, emit);
  }
  Diagnostics plan_action(const std::string& type_name, const Value& config) override {
    return to.plan_action(type_name, config);
  }
  Diagnostics invoke_action(const std::string& type_name, const Value& config,
                            const ActionProgress& progress) override {
    return to.invoke_action(type_name, config, progress);
  }
  Diagnostics call_store(const std::string& store_type, const Value& config,
                         StoreCall& call) override {
    return to.call_store(store_type, config, call);
  }
};

struct ScriptedLogic : ProviderLogic, LogicSession {
  using Callback = std::function<Diagnostics(ResourceData&)>;
  ProviderSchema declared;
  Diagnostics loading;
  std::map<Operation, Callback> callbacks;
  Value configured_with;

  const Diagnostics& load_diagnostics() const override { return loading; }
  const ProviderSchema& schema() const override { return declared; }
  std::unique_ptr<LogicSession> open_session() override {
    ++sessions_opened;
    return std::make_unique<ForwardingSession>(*this);
  }
  std::atomic<int> sessions_opened = 0;  // one per RPC that calls a hook
  // move_state by the logic, when a test sets one (and the schema says moves_state).
  std::function<std::optional<Value>(const MoveSource&, const Type&, Diagnostics&)> mover;
  std::optional<Value> move_state(const std::string&, const MoveSource& source, const Type& target,
                                  Diagnostics& diags) override {
    return mover(source, target, diags);
  }
  // The whole objects each attribute hook was judged in (HookObjects), hook by hook.
  struct Around {
    std::string hook;
    Value resource;
    Value config;
    Value prior;
  };
  std::vector<Around> arounds;
  void record(const char* hook, const HookObjects& around) {
    arounds.push_back({hook, around.resource, around.config, around.prior});
  }
  // Validation callbacks by attribute path ("disk[0].size"); values seen are recorded.
  std::map<std::string, std::function<Diagnostics(const Value&)>> validators;
  std::vector<std::string> validated;
  Diagnostics validate_value(SchemaOwner, const std::string&, const AttributePath& path,
                             const Value& value, const HookObjects& around) override {
    record("validate", around);
    const std::string name = path_to_string(path);
    validated.push_back(name + "=" + value.to_display_string());
    auto it = validators.find(name);
    return it == validators.end() ? Diagnostics{} : it->second(value);
  }
  // diff_suppress by attribute path ("name", "disk[0].label"); pairs asked are recorded.
  std::map<std::string, std::function<bool(const Value&, const Value&)>> equivalences;
  std::vector<std::string> compared;
  bool same_value(const std::string&, const AttributePath& path, const Value& earlier,
                  const Value& later, const HookObjects& around, Diagnostics&) override {
    record("same_value", around);
    const std::string name = path_to_string(path);
    compared.push_back(name + ":" + earlier.to_display_string() + "~" + later.to_display_string());
    auto it = equivalences.find(name);
    return it != equivalences.end() && it->second(earlier, later);
  }
  // Element normalisers by the set's path ("records", "disk[0].rule"), each element's normal
  // form (a set without one: the element itself); the elements asked about are recorded.
  std::map<std::string, std::function<Value(const Value&)>> normalisers;
  std::vector<std::string> normalised;
  std::optional<Value::List> normal_forms(const std::string&, const AttributePath& path,
                                          const Value::List& elements, const HookObjects& around,
                                          Diagnostics&) override {
    record("normal_forms", around);
    const std::string name = path_to_string(path);
    auto it = normalisers.find(name);
    Value::List forms;
    for (const Value& element : elements) {
      normalised.push_back(name + ":" + element.to_display_string());
      forms.push_back(it == normalisers.end() ? element : it->second(element));
    }
    return forms;
  }
  // requires_replace_if by attribute path; pairs asked are recorded.
  std::map<std::string, std::function<bool(const Value&, const Value&)>> replacers;
  std::vector<std::string> asked_replace;
  bool requires_replace(const std::string&, const AttributePath& path, const Value& prior,
                        const Value& planned, const HookObjects& around, Diagnostics&) override {
    record("requires_replace", around);
    const std::string name = path_to_string(path);
    asked_replace.push_back(name + ":" + prior.to_display_string() + "->" +
                            planned.to_display_string());
    auto it = replacers.find(name);
    return it != replacers.end() && it->second(prior, planned);
  }
  // Plan functions by attribute path ("mode", "disk[0].label"), given the prior, configured
  // and planned objects holding the attribute; the whole resources seen are recorded.
  std::map<std::string,
           std::function<std::optional<Value>(const Value&, const Value&, const Value&)>>
      planners;
  std::vector<Value> planned_resources;
  std::optional<Value> plan_attribute(const std::string&, const Attribute&, const PlanContext& at,
                                      Diagnostics&) override {
    planned_resources.push_back(at.resource);
    auto it = planners.find(path_to_string(at.path));
    if (it == planners.end()) return std::nullopt;
    return it->second(at.prior, at.config, at.planned);
  }
  // The upgrade by the logic, when a test sets one.
  std::function<std::optional<Value>(int64_t, const std::string&, const Type&, Diagnostics&)>
      upgrader;
  std::optional<Value> upgrade_state(const std::string&, int64_t from, const std::string& raw,
                                     const Type& current, Diagnostics& diags) override {
    if (!upgrader) return std::nullopt;
    return upgrader(from, raw, current, diags);
  }
  // The identity upgrade by the logic, when a test sets one.
  std::function<std::optional<Value>(int64_t, const std::string&, const Type&, Diagnostics&)>
      identity_upgrader;
  std::optional<Value> upgrade_identity(const std::string&, int64_t from, const std::string& raw,
                                        const Type& current, Diagnostics& diags) override {
    if (!identity_upgrader) return std::nullopt;
    return identity_upgrader(from, raw, current, diags);
  }
  // configure records what it was given, then runs the test's configurer (which may throw).
  std::function<Diagnostics(const Value&)> configurer;
  Diagnostics configure(const Value& config) override {
    configured_with = config;
    return configurer ? configurer(config) : Diagnostics{};
  }
  Diagnostics call(Operation op, const std::string&, ResourceData& d) override {
    auto it = callbacks.find(op);
    return it == callbacks.end() ? Diagnostics{} : it->second(d);
  }
  // Provider-defined functions by name; the arguments of each call are recorded.
  std::map<std::string, std::function<FunctionOutcome(const std::vector<Value>&)>> functions;
  std::vector<std::string> function_calls;
  FunctionOutcome call_function(const std::string& name, const Function&,
                                const std::vector<Value>& arguments) override {
    std::string call = name + "(";
    for (size_t i = 0; i < arguments.size(); ++i) {
      call += (i ? ", " : "") + arguments[i].to_display_string();
    }
    function_calls.push_back(call + ")");
    auto it = functions.find(name);
    if (it == functions.end()) return {Value(), FunctionFailure{"no such function", {}}};
    return it->second(arguments);
  }
  // The list resources' listing, when a test sets one; the calls it makes through `run` land
  // in `callbacks` like any other.
  std::function<Diagnostics(const Value&, const ListOptions&, const ListEmit&)> lister;
  Diagnostics list(const std::string&, const Schema&, const Value& config,
                   const ListOptions& options, const ListEmit& emit) override {
    return lister ? lister(config, options, emit) : Diagnostics{};
  }
  // Actions: the plan-time check and the invoke, when a test sets them.
  std::function<Diagnostics(const Value&)> action_planner;
  std::function<Diagnostics(const Value&, const ActionProgress&)> action_runner;
  Diagnostics plan_action(const std::string&, const Value& config) override {
    return action_planner ? action_planner(config) : Diagnostics{};
  }
  Diagnostics invoke_action(const std::string&, const Value& config,
                            const ActionProgress& progress) override {
    return action_runner ? action_runner(config, progress) : Diagnostics{};
  }
  // State stores: the test's store, given the configuration and the call to answer.
  std::function<Diagnostics(const Value&, StoreCall&)> store;
  Diagnostics call_store(const std::string&, const Value& config, StoreCall& call) override {
    return store ? store(config, call) : Diagnostics{};
  }
  std::atomic<int> stops = 0;
  void stop() override { ++stops; }
};

inline Attribute attribute(std::string name, Type type, bool required, bool optional,
                           bool computed) {
  Attribute a;
  a.name = std::move(name);
  a.type = std::move(type);
  a.required = required;
  a.optional = optional;
  a.computed = computed;
  return a;
}

// A resource "test_file": path (required, force_new), content (optional, default ""),
// sha (computed), mode (optional+computed), plus the served id.
inline Schema file_schema() {
  Schema s;
  Attribute path = attribute("path", Type::string(), true, false, false);
  path.force_new = true;
  Attribute content = attribute("content", Type::string(), false, true, false);
  content.default_value = Value::string("");
  // The file's hash is new whenever its content changes.
  Attribute sha = attribute("sha", Type::string(), false, false, true);
  sha.changes_on_update = true;
  s.block.attributes = {path, content, sha, attribute("mode", Type::string(), false, true, true)};
  return s;
}

// What most engine tests start from: a ScriptedLogic, whose declarations a fixture fills, and
// the service over it, started by serve() as the CLI's first GetProviderSchema finds it.
struct ServiceFixture {
  std::shared_ptr<ScriptedLogic> logic = std::make_shared<ScriptedLogic>();
  std::unique_ptr<ProviderService> service;

  // Starts the service on what `logic` declares; the schema it serves.
  const ProviderSchema& serve() {
    service = std::make_unique<ProviderService>(logic);
    return *service->get_provider_schema().schema;
  }
};

// The service over one resource, test_file (file_schema()), whose object type is at hand: the
// start of the tests of the RPCs of a single resource (apply, read, import).
struct FileServiceFixture : ServiceFixture {
  Type type;

  explicit FileServiceFixture(bool has_update = true, bool importable = true) {
    logic->declared.resources["test_file"] = file_schema();
    logic->declared.resources["test_file"].has_update = has_update;
    logic->declared.resources["test_file"].importable = importable;
    type = serve().resources.at("test_file").block.implied_type();
  }
  Value object(Value::Object attrs) const { return Value::object(type, std::move(attrs)); }
  // An object as a create made it and the state holds it.
  Value existing() const {
    return object({{"id", Value::string("/a")},
                   {"path", Value::string("/a")},
                   {"content", Value::string("x")},
                   {"sha", Value::string("abc")},
                   {"mode", Value::string("0644")}});
  }
};

// A logic's failure with `message`.
inline Diagnostics failure_of(const std::string& message) {
  Diagnostics d;
  d.error(message);
  return d;
}

}  // namespace luaform::engine::testing
