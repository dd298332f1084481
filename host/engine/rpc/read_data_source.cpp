// ReadDataSource: a read-only resource resolved from its configuration. The result must be a
// wholly known, non-null object.
#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/schema/schema_rules.h"

namespace luaform::engine {

ReadDataResponse ProviderService::read_data_source(const ReadDataRequest& req) const {
  return detail::in_session<ReadDataResponse>(*logic_, provider_secrets(), [&](Session& session) {
    SecretScope& secrets = session.secrets();
    ReadDataResponse resp;
    Diagnostics& diags = resp.diagnostics;
    const Schema* schema =
        detail::find_schema(schema_.data_sources, "data source", req.type_name, diags);
    if (!schema) return resp;
    const Type type = schema->block.implied_type();
    const Value& config = req.config;
    secrets.add(schema->block, config);
    // Not configured yet: the data source's values stay unknown until a later run reads it.
    if (defers(req.deferral_allowed)) {
      resp.deferred = DeferralReason::ProviderConfigUnknown;
      resp.state = Value::unknown(type);
      return resp;
    }
    Value planned = with_defaults(schema->block, config, config);
    ResourceData d(*schema, Value::null(type), config, planned);
    d.set_deferrable(req.deferral_allowed ? Deferrable::Allowed : Deferrable::NotByCli);
    diags.append(session.call(Operation::ReadData, req.type_name, d));
    if (diags.has_errors()) return resp;
    // The script deferred: the values stay unknown until a later run reads them.
    if (d.deferred()) {
      resp.deferred = d.deferred();
      resp.state = Value::unknown(type);
      return resp;
    }
    // A data source has no lifecycle, so an id is optional for its author; the state needs one.
    if (d.id().empty()) d.set_id(req.type_name);
    resp.state = d.result();
    return resp;
  });
}

}  // namespace luaform::engine
