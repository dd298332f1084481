#include "host/engine/rpc/session.h"

#include <exception>

namespace luaform::engine {
namespace {

// `run()`, or what `failed(why)` makes of the exception it threw.
template <class Run, class Failed>
auto guarded(Run&& run, Failed&& failed) -> decltype(run()) {
  try {
    return run();
  } catch (const std::exception& e) {
    return failed(e.what());
  }
}

// An error diagnostic alone, for the hooks that answer with diagnostics.
Diagnostics failure(const std::string& summary, const std::string& why,
                    const AttributePath& path = {}) {
  Diagnostics diags;
  diags.error(summary, why, path);
  return diags;
}

}  // namespace

Session::Session(ProviderLogic& logic,
                 std::shared_ptr<const std::vector<std::string>> provider_secrets)
    : secrets_(std::move(provider_secrets)), hooks_(logic.open_session()) {}

Diagnostics Session::validate_value(SchemaOwner owner, const std::string& type_name,
                                    const AttributePath& path, const Value& value,
                                    const HookObjects& around) {
  return guarded([&] { return hooks_->validate_value(owner, type_name, path, value, around); },
                 [&](const std::string& why) {
                   return failure("Validation of \"" + path_to_string(path) + "\" failed", why,
                                  path);
                 });
}

bool Session::same_value(const std::string& resource_type, const AttributePath& path,
                         const Value& earlier, const Value& later, const HookObjects& around,
                         Diagnostics& diags) {
  return guarded(
      [&] { return hooks_->same_value(resource_type, path, earlier, later, around, diags); },
      [&](const std::string& why) {
        diags.error(resource_type + ": diff_suppress failed", why, path);
        return false;
      });
}

std::optional<Value::List> Session::normal_forms(const std::string& resource_type,
                                                 const AttributePath& path,
                                                 const Value::List& elements,
                                                 const HookObjects& around, Diagnostics& diags) {
  return guarded(
      [&] { return hooks_->normal_forms(resource_type, path, elements, around, diags); },
      [&](const std::string& why) -> std::optional<Value::List> {
        diags.error(resource_type + ": the normal forms of \"" + path_to_string(path) + "\" failed",
                    why, path);
        return std::nullopt;
      });
}

Equivalence Session::equivalence(const std::string& resource_type, const Value& resource,
                                 Diagnostics& diags, Keeping keeping) {
  // Comparing spellings, the step has only the resource the values belong to.
  return {[this, resource_type, &resource, &diags](const AttributePath& path, const Value& a,
                                                   const Value& b) {
            return same_value(resource_type, path, a, b, {resource, Value(), Value()}, diags);
          },
          [this, resource_type, &resource, &diags](const AttributePath& path,
                                                   const Value::List& elements) {
            return normal_forms(resource_type, path, elements, {resource, Value(), Value()}, diags);
          },
          keeping};
}

bool Session::requires_replace(const std::string& resource_type, const AttributePath& path,
                               const Value& prior, const Value& planned, const HookObjects& around,
                               Diagnostics& diags) {
  return guarded(
      [&] { return hooks_->requires_replace(resource_type, path, prior, planned, around, diags); },
      [&](const std::string& why) {
        diags.error(
            resource_type + ": requires_replace_if of \"" + path_to_string(path) + "\" failed", why,
            path);
        return false;
      });
}

std::optional<Value> Session::plan_attribute(const std::string& resource_type,
                                             const Attribute& attribute, const PlanContext& at,
                                             Diagnostics& diags) {
  return guarded([&] { return hooks_->plan_attribute(resource_type, attribute, at, diags); },
                 [&](const std::string& why) -> std::optional<Value> {
                   diags.error(
                       resource_type + ": plan of \"" + path_to_string(at.path) + "\" failed", why,
                       at.path);
                   return std::nullopt;
                 });
}

std::optional<Value> Session::upgrade_state(const std::string& type_name, int64_t from_version,
                                            const std::string& raw_json, const Type& current,
                                            Diagnostics& diags) {
  return guarded(
      [&] { return hooks_->upgrade_state(type_name, from_version, raw_json, current, diags); },
      [&](const std::string& why) -> std::optional<Value> {
        diags.error("Upgrading the state of " + type_name + " failed", why);
        return std::nullopt;
      });
}

std::optional<Value> Session::upgrade_identity(const std::string& type_name, int64_t from_version,
                                               const std::string& raw_json, const Type& current,
                                               Diagnostics& diags) {
  return guarded(
      [&] { return hooks_->upgrade_identity(type_name, from_version, raw_json, current, diags); },
      [&](const std::string& why) -> std::optional<Value> {
        diags.error("Upgrading the identity of " + type_name + " failed", why);
        return std::nullopt;
      });
}

std::optional<Value> Session::move_state(const std::string& target_type, const MoveSource& source,
                                         const Type& target, Diagnostics& diags) {
  return guarded([&] { return hooks_->move_state(target_type, source, target, diags); },
                 [&](const std::string& why) -> std::optional<Value> {
                   diags.error("Cannot move " + source.type_name + " to " + target_type, why);
                   return std::nullopt;
                 });
}

Diagnostics Session::call(Operation op, const std::string& type_name, ResourceData& d) {
  // The sensitive values `d` holds are the RPC's secrets while the call runs (its log lines hide
  // them); what the call sets sensitive joins them as it is set (ResourceData::set).
  for (auto& secret : d.sensitive_texts()) secrets_.add(std::move(secret));
  return guarded([&] { return hooks_->call(op, type_name, d); },
                 [&](const std::string& why) {
                   return failure(type_name + ": " + operation_name(op) + " failed", why);
                 });
}

FunctionOutcome Session::call_function(const std::string& name, const Function& declared,
                                       const std::vector<Value>& arguments) {
  return guarded([&] { return hooks_->call_function(name, declared, arguments); },
                 [&](const std::string& why) {
                   FunctionOutcome outcome;
                   outcome.failure = FunctionFailure{name + ": " + why, std::nullopt};
                   return outcome;
                 });
}

Diagnostics Session::list(const std::string& resource_type, const Schema& resource,
                          const Value& config, const ListOptions& options, const ListEmit& emit) {
  return guarded(
      [&] { return hooks_->list(resource_type, resource, config, options, emit); },
      [&](const std::string& why) { return failure(resource_type + ": list failed", why); });
}

Diagnostics Session::plan_action(const std::string& action_type, const Value& config) {
  return guarded(
      [&] { return hooks_->plan_action(action_type, config); },
      [&](const std::string& why) { return failure(action_type + ": plan failed", why); });
}

Diagnostics Session::invoke_action(const std::string& action_type, const Value& config,
                                   const ActionProgress& progress) {
  return guarded(
      [&] { return hooks_->invoke_action(action_type, config, progress); },
      [&](const std::string& why) { return failure(action_type + ": invoke failed", why); });
}

Diagnostics Session::call_store(const std::string& store_type, const Value& config,
                                StoreCall& call) {
  return guarded([&] { return hooks_->call_store(store_type, config, call); },
                 [&](const std::string& why) {
                   return failure(store_type + ": " + store_op_name(call.op) + " failed", why);
                 });
}

}  // namespace luaform::engine
