// UpgradeResourceState: decodes stored JSON state into the current schema. A state written by
// an older schema version goes through the resource's upgrade functions first, one version at
// a time; attributes the schema no longer has are dropped; a state written by a newer schema
// version is refused. An upgrade that fails leaves the stored state untouched (the CLI keeps it).

#include "host/engine/codec/json_codec.h"
#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/schema/schema_rules.h"

namespace luaform::engine {

UpgradeResponse ProviderService::upgrade_resource_state(const UpgradeRequest& req) const {
  return detail::in_session<UpgradeResponse>(*logic_, provider_secrets(), [&](Session& session) {
    SecretScope& secrets = session.secrets();
    UpgradeResponse resp;
    Diagnostics& diags = resp.diagnostics;
    const Schema* schema = detail::find_schema(schema_.resources, "resource", req.type_name, diags);
    if (!schema) return resp;
    const Type type = schema->block.implied_type();
    // The stored state may be older than the schema: its secrets are found by name.
    secrets.add_json(schema->block, req.raw_state_json);
    if (req.version > schema->version) {
      diags.error("State of " + req.type_name + " is from a newer provider",
                  "The stored state has schema version " + std::to_string(req.version) +
                      " but this provider's is " + std::to_string(schema->version) +
                      ". Use the provider version that wrote it.");
      return resp;
    }
    if (req.raw_state_json.empty()) {
      if (!req.raw_state_flatmap.empty()) {
        diags.error("Legacy flatmap state is not supported",
                    "State for " + req.type_name + " was written by Terraform 0.11 or older.");
      }
      resp.upgraded_state = Value::null(type);
      return resp;
    }
    // A value written before an attribute became write-only is not kept either.
    const auto stored = [&](const Value& state) {
      return without_write_only(schema->block, with_empty_blocks(schema->block, state));
    };
    if (req.version < schema->version) {
      std::optional<Value> upgraded;
      upgraded = session.upgrade_state(req.type_name, req.version, req.raw_state_json, type, diags);
      if (diags.has_errors()) return resp;
      if (upgraded) {
        resp.upgraded_state = stored(*upgraded);
        return resp;
      }
    }
    Value state =
        decode_value_json(req.raw_state_json, type, diags, /*drop_unknown_attributes=*/true);
    if (diags.has_errors()) return resp;
    resp.upgraded_state = stored(state);
    return resp;
  });
}

}  // namespace luaform::engine
