// What an RPC calls the provider's logic through: one LogicSession for the whole RPC, so that
// every hook it calls runs on what the session took for it (for the Lua scripts, one configured
// state instead of a borrow per hook). Nothing here throws: a hook that throws becomes an error
// diagnostic whose summary names the hook, here and nowhere else. What a CRUD operation leaves
// sensitive in `d` joins the secrets of the RPC's scope (secret_scope.h), so that the RPC hides
// it from everything it reports.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/engine/rpc/provider_logic.h"

namespace luaform::engine {

class Session {
 public:
  explicit Session(ProviderLogic& logic);

  Diagnostics validate_value(SchemaOwner owner, const std::string& type_name,
                             const AttributePath& path, const Value& value);
  bool same_value(const std::string& resource_type, const AttributePath& path, const Value& earlier,
                  const Value& later, Diagnostics& diags);
  bool requires_replace(const std::string& resource_type, const AttributePath& path,
                        const Value& prior, const Value& planned, Diagnostics& diags);
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

 private:
  std::unique_ptr<LogicSession> hooks_;
};

}  // namespace luaform::engine
