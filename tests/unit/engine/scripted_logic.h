// A ProviderLogic whose schema and CRUD callbacks are given by each test, so the engine's
// rules can be specified without Lua or gRPC.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "host/engine/codec/msgpack_codec.h"
#include "host/engine/rpc/provider_logic.h"
#include "host/engine/rpc/provider_service.h"

namespace luaform::engine::testing {

struct ScriptedLogic : ProviderLogic {
  using Callback = std::function<Diagnostics(ResourceData&)>;
  ProviderSchema declared;
  Diagnostics loading;
  std::map<Operation, Callback> callbacks;
  Value configured_with;

  const Diagnostics& load_diagnostics() const override { return loading; }
  const ProviderSchema& schema() const override { return declared; }
  // move_state by the logic, when a test sets one (and the schema says moves_state).
  std::function<std::optional<Value>(const MoveSource&, const Type&, Diagnostics&)> mover;
  std::optional<Value> move_state(const std::string&, const MoveSource& source, const Type& target,
                                  Diagnostics& diags) override {
    return mover(source, target, diags);
  }
  // Validation callbacks by attribute path ("disk[0].size"); values seen are recorded.
  std::map<std::string, std::function<Diagnostics(const Value&)>> validators;
  std::vector<std::string> validated;
  Diagnostics validate_value(SchemaOwner, const std::string&, const AttributePath& path,
                             const Value& value) override {
    const std::string name = path_to_string(path);
    validated.push_back(name + "=" + value.to_display_string());
    auto it = validators.find(name);
    return it == validators.end() ? Diagnostics{} : it->second(value);
  }
  // diff_suppress by attribute path ("name", "disk[0].label"); pairs asked are recorded.
  std::map<std::string, std::function<bool(const Value&, const Value&)>> equivalences;
  std::vector<std::string> compared;
  bool same_value(const std::string&, const AttributePath& path, const Value& earlier,
                  const Value& later, Diagnostics&) override {
    const std::string name = path_to_string(path);
    compared.push_back(name + ":" + earlier.to_display_string() + "~" + later.to_display_string());
    auto it = equivalences.find(name);
    return it != equivalences.end() && it->second(earlier, later);
  }
  // requires_replace_if by attribute path; pairs asked are recorded.
  std::map<std::string, std::function<bool(const Value&, const Value&)>> replacers;
  std::vector<std::string> asked_replace;
  bool requires_replace(const std::string&, const AttributePath& path, const Value& prior,
                        const Value& planned, Diagnostics&) override {
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
  Diagnostics configure(const Value& config) override {
    configured_with = config;
    return {};
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
  void stop() override {}
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

inline DynamicValue wire(const Value& v) {
  return DynamicValue{encode_msgpack(v, v.type()), {}};
}

inline Value unwire(const DynamicValue& dv, const Type& t) {
  Diagnostics diags;
  return decode_msgpack(dv.msgpack, t, diags);
}

}  // namespace luaform::engine::testing
