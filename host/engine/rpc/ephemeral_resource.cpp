// Ephemeral resources: Open resolves a value from the configuration for the length of one CLI
// run (it is never planned or saved); Renew keeps what Open acquired alive while the run lasts;
// Close releases it. Renew and Close see only the private data, never the value.
#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/schema/schema_rules.h"

namespace luaform::engine {
namespace {

// What Renew and Close work on: no values, only the private data.
ResourceData private_only(const Schema& schema, const std::string& private_data) {
  const Type type = schema.block.implied_type();
  ResourceData d(schema, Value::null(type), Value::null(type), Value::null(type));
  d.set_private_data(private_data);
  return d;
}

}  // namespace

OpenEphemeralResponse ProviderService::open_ephemeral_resource(
    const OpenEphemeralRequest& req) const {
  return detail::in_session<OpenEphemeralResponse>(
      *logic_, provider_secrets(), [&](Session& session) {
        SecretScope& secrets = session.secrets();
        OpenEphemeralResponse resp;
        Diagnostics& diags = resp.diagnostics;
        const Schema* schema = detail::find_schema(schema_.ephemeral_resources,
                                                   "ephemeral resource", req.type_name, diags);
        if (!schema) return resp;
        const Type type = schema->block.implied_type();
        const Value& config = req.config;
        secrets.add(schema->block, config);
        // Not configured yet, or (where the CLI allows deferrals) arguments not known yet: the
        // value is opened in a later run, and stays unknown meanwhile.
        if (defers(req.deferral_allowed) || (req.deferral_allowed && !config.is_wholly_known())) {
          resp.deferred = defers(req.deferral_allowed) ? DeferralReason::ProviderConfigUnknown
                                                       : DeferralReason::ResourceConfigUnknown;
          resp.result = Value::unknown(type);
          return resp;
        }
        // The CLI opens an ephemeral resource only once its configuration is known (it defers the
        // rest to apply); a value made from guesses would be handed on as if it were real.
        if (!config.is_wholly_known()) {
          diags.error(
              req.type_name + ": open needs a known configuration",
              "Some of its arguments are not known until apply, so it cannot be opened yet.");
          return resp;
        }
        ResourceData d(*schema, Value::null(type), config,
                       with_defaults(schema->block, config, config));
        d.allow_renewal();
        d.set_deferrable(req.deferral_allowed ? Deferrable::Allowed : Deferrable::NotByCli);
        diags.append(session.call(Operation::Open, req.type_name, d));
        if (diags.has_errors()) return resp;
        // The script deferred (d:defer): nothing was opened; the value stays unknown.
        if (d.deferred()) {
          resp.deferred = d.deferred();
          resp.result = Value::unknown(type);
          return resp;
        }
        resp.result = d.values();
        resp.private_data = d.private_data();
        resp.renew_at = d.renew_at();
        return resp;
      });
}

RenewEphemeralResponse ProviderService::renew_ephemeral_resource(
    const RenewEphemeralRequest& req) const {
  return detail::in_session<RenewEphemeralResponse>(
      *logic_, provider_secrets(), [&](Session& session) {
        RenewEphemeralResponse resp;
        const Schema* schema = detail::find_schema(
            schema_.ephemeral_resources, "ephemeral resource", req.type_name, resp.diagnostics);
        if (!schema) return resp;
        ResourceData d = private_only(*schema, req.private_data);
        d.allow_renewal();
        resp.diagnostics.append(session.call(Operation::Renew, req.type_name, d));
        // A failed renewal keeps the private data it started from: Close still needs it.
        resp.private_data = resp.diagnostics.has_errors() ? req.private_data : d.private_data();
        if (!resp.diagnostics.has_errors()) resp.renew_at = d.renew_at();
        return resp;
      });
}

Diagnostics ProviderService::close_ephemeral_resource(const RenewEphemeralRequest& req) const {
  return detail::in_session<Diagnostics>(*logic_, provider_secrets(), [&](Session& session) {
    Diagnostics diags;
    const Schema* schema = detail::find_schema(schema_.ephemeral_resources, "ephemeral resource",
                                               req.type_name, diags);
    if (!schema) return diags;
    ResourceData d = private_only(*schema, req.private_data);
    diags.append(session.call(Operation::Close, req.type_name, d));
    return diags;
  });
}

}  // namespace luaform::engine
