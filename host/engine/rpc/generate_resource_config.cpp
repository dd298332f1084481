// GenerateResourceConfig: the configuration a user would write for a stored object (Terraform
// 1.14's -generate-config-out after an import block, and `terraform query`). The CLI renders it
// as HCL and plans with it, so the plan must find nothing to change.
#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/rules/generated_config.h"

namespace luaform::engine {

GenerateConfigResponse ProviderService::generate_resource_config(
    const GenerateConfigRequest& req) const {
  return detail::in_session<GenerateConfigResponse>(
      *logic_, provider_secrets(), [&](Session& session) {
        SecretScope& secrets = session.secrets();
        GenerateConfigResponse resp;
        Diagnostics& diags = resp.diagnostics;
        const Schema* schema =
            detail::find_schema(schema_.resources, "resource", req.type_name, diags);
        if (!schema) return resp;
        secrets.add(schema->block, req.state);
        resp.config = config_from_state(schema->block, req.state);
        return resp;
      });
}

}  // namespace luaform::engine
