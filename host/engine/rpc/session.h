// What an RPC calls the provider's logic through: one LogicSession for the whole RPC, so that
// every hook it calls runs on what the session took for it (for the Lua scripts, one configured
// state instead of a borrow per hook). Nothing here throws: a hook that throws becomes an error
// diagnostic whose summary names the hook, here and nowhere else.
//
// The session holds the RPC's secrets (secret_scope.h): the provider configuration's, those of
// the values the RPC reads, and what a CRUD operation leaves sensitive in `d`. Every hook of
// every kind runs with them in scope, so the log lines it writes hide them, and the RPC hides
// them from everything it reports.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/engine/rpc/provider_logic.h"
#include "host/engine/rules/equivalence.h"
#include "host/engine/rules/secret_scope.h"

namespace luaform::engine {

class Session {
 public:
  explicit Session(ProviderLogic& logic,
                   std::shared_ptr<const std::vector<std::string>> provider_secrets = nullptr);

  SecretScope& secrets() { return secrets_; }

  Diagnostics validate_value(SchemaOwner owner, const std::string& type_name,
                             const AttributePath& path, const Value& value,
                             const HookObjects& around);
  bool same_value(const std::string& resource_type, const AttributePath& path, const Value& earlier,
                  const Value& later, const HookObjects& around, Diagnostics& diags);
  std::optional<Value::List> normal_forms(const std::string& resource_type,
                                          const AttributePath& path, const Value::List& elements,
                                          const HookObjects& around, Diagnostics& diags);
  // The resource's own diff_suppress / state_func and element normalisers as keep_equivalent
  // asks them about values of `resource`, through same_value and normal_forms above; their
  // problems go to `diags`. `resource` and `diags` must outlive the result, as this session
  // must.
  Equivalence equivalence(const std::string& resource_type, const Value& resource,
                          Diagnostics& diags, Keeping keeping = Keeping::ByElement);
  bool requires_replace(const std::string& resource_type, const AttributePath& path,
                        const Value& prior, const Value& planned, const HookObjects& around,
                        Diagnostics& diags);
  std::optional<Value> plan_attribute(const std::string& resource_type, const Attribute& attribute,
                                      const PlanContext& at, Diagnostics& diags);
  std::optional<Value> upgrade_state(const std::string& type_name, int64_t from_version,
                                     const std::string& raw_json, const Type& current,
                                     Diagnostics& diags);
  std::optional<Value> upgrade_identity(const std::string& type_name, int64_t from_version,
                                        const std::string& raw_json, const Type& current,
                                        Diagnostics& diags);
  std::optional<Value> move_state(const std::string& target_type, const MoveSource& source,
                                  const Type& target, Diagnostics& diags);
  Diagnostics call(Operation op, const std::string& type_name, ResourceData& d);
  FunctionOutcome call_function(const std::string& name, const Function& declared,
                                const std::vector<Value>& arguments);
  Diagnostics list(const std::string& resource_type, const Schema& resource, const Value& config,
                   const ListOptions& options, const ListEmit& emit);
  Diagnostics plan_action(const std::string& action_type, const Value& config);
  Diagnostics invoke_action(const std::string& action_type, const Value& config,
                            const ActionProgress& progress);
  Diagnostics call_store(const std::string& store_type, const Value& config, StoreCall& call);

 private:
  // Opened before the hooks and closed after them: nothing of theirs runs out of scope.
  SecretScope secrets_;
  std::unique_ptr<LogicSession> hooks_;
};

}  // namespace luaform::engine
