// MoveResourceState: a `moved` block from a resource of another type (of this provider or any
// other) to one of ours. The target's own function turns the stored source state into a target
// state; the CLI then plans the target as usual, so nothing is created or destroyed.

#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/rules/resource_identity.h"
#include "host/engine/schema/schema_rules.h"

namespace luaform::engine {

MoveResponse ProviderService::move_resource_state(const MoveRequest& req) const {
  return detail::in_session<MoveResponse>(*logic_, provider_secrets(), [&](Session& session) {
    SecretScope& secrets = session.secrets();
    MoveResponse resp;
    Diagnostics& diags = resp.diagnostics;
    const Schema* schema =
        detail::find_schema(schema_.resources, "resource", req.target_type_name, diags);
    if (!schema) return resp;
    const std::string what = "Cannot move " + req.source.type_name + " to " + req.target_type_name;
    if (!schema->moves_state) {
      diags.error(what, "The script of " + req.target_type_name +
                            " declares no move_state function, so it cannot take over the state "
                            "of another resource type.");
      return resp;
    }
    if (req.source.raw_json.empty()) {
      diags.error(what, req.source.type_name +
                            (req.source_state_flatmap.empty()
                                 ? " has no stored state to move."
                                 : " was stored by Terraform 0.11 or older (flatmap state)."));
      return resp;
    }
    const Type type = schema->block.implied_type();
    // The source's values: found by the source type's names when it is one of this provider's
    // resources, else by the target's.
    auto source_schema = schema_.resources.find(req.source.type_name);
    secrets.add_json(
        source_schema != schema_.resources.end() ? source_schema->second.block : schema->block,
        req.source.raw_json);
    std::optional<Value> moved;
    moved = session.move_state(req.target_type_name, req.source, type, diags);
    if (diags.has_errors()) return resp;
    if (!moved) {
      diags.error(what, "move_state of " + req.target_type_name + " does not take resources of " +
                            "type " + req.source.type_name + " from " +
                            req.source.provider_address + ".");
      return resp;
    }
    if (moved->is_null()) {
      diags.error(what, "move_state of " + req.target_type_name + " returned no object.");
      return resp;
    }
    const Value state = without_write_only(schema->block, with_empty_blocks(schema->block, *moved));
    resp.target_state = state;
    // Private data is the scripts' own JSON whatever the type, so it moves along.
    resp.target_private = req.source_private;
    // The target's identity, when its state holds all of it; otherwise the next read gives it.
    if (schema->identity) {
      const ResourceData d(*schema, state, Value::null(type), Value::null(type));
      const Value identity = identity_of(*schema->identity, state, d);
      if (identity_complete(*schema->identity, identity)) {
        resp.target_identity = identity;
      }
    }
    return resp;
  });
}

}  // namespace luaform::engine
