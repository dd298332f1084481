// GetResourceIdentitySchemas and UpgradeResourceIdentity: the identity's schema, for the
// resources that declare one, and the reading of identities the CLI stored under an older
// identity version, which go through the resource's identity upgrade functions one version at
// a time, like states (upgrade_resource_state.cpp). An identity from a newer version is refused.

#include "host/engine/codec/json_codec.h"
#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/schema/spelling.h"

namespace luaform::engine {

GetIdentitySchemasResponse ProviderService::get_resource_identity_schemas() const {
  GetIdentitySchemasResponse resp;
  resp.diagnostics.append(reported_load_problems(false));
  for (const auto& [name, schema] : schema_.resources) {
    if (schema.identity) resp.identities.emplace(name, &*schema.identity);
  }
  return resp;
}

UpgradeIdentityResponse ProviderService::upgrade_resource_identity(
    const UpgradeIdentityRequest& req) const {
  return detail::in_session<UpgradeIdentityResponse>(
      *logic_, provider_secrets(), [&](Session& session) {
        UpgradeIdentityResponse resp;
        Diagnostics& diags = resp.diagnostics;
        const Schema* schema =
            detail::find_schema(schema_.resources, "resource", req.type_name, diags);
        if (!schema) return resp;
        if (!schema->identity) {
          diags.error("Resource " + req.type_name + " has no identity",
                      "The stored state has an identity, but the resource's script declares none. "
                      "Use the provider version that wrote it.");
          return resp;
        }
        const ResourceIdentity& identity = *schema->identity;
        const Type type = identity.implied_type();
        if (req.version > identity.version) {
          diags.error("Identity of " + req.type_name + " is from a newer provider",
                      "The stored identity has version " + std::to_string(req.version) +
                          " but this provider's is " + std::to_string(identity.version) +
                          ". Use the provider version that wrote it.");
          return resp;
        }
        if (req.version < identity.version) {
          std::optional<Value> upgraded;
          upgraded = session.upgrade_identity(req.type_name, req.version, req.raw_identity_json,
                                              type, diags);
          if (diags.has_errors()) return resp;
          if (!upgraded) {
            diags.error("Identity of " + req.type_name + " needs an upgrade",
                        "The stored identity has version " + std::to_string(req.version) +
                            ", the script's is " + std::to_string(identity.version) +
                            ", and it declares no identity upgrade from version " +
                            std::to_string(req.version) +
                            written_as(Hint::IdentityUpgrade, std::to_string(req.version)) + ".");
            return resp;
          }
          resp.upgraded_identity = *upgraded;
          return resp;
        }
        Value stored = decode_value_json(req.raw_identity_json, type, diags);
        if (diags.has_errors()) return resp;
        resp.upgraded_identity = std::move(stored);
        return resp;
      });
}

}  // namespace luaform::engine
