// ReadResource: refresh. A read that clears the id reports that the object is gone, and the
// CLI removes it from state; a read that fails keeps the current state.
#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/rules/resource_identity.h"
#include "host/engine/rules/zero_values.h"
#include "host/engine/schema/schema_rules.h"

namespace luaform::engine {

ReadResponse ProviderService::read_resource(const ReadRequest& req) const {
  return detail::in_session<ReadResponse>(*logic_, provider_secrets(), [&](Session& session) {
    SecretScope& secrets = session.secrets();
    ReadResponse resp;
    Diagnostics& diags = resp.diagnostics;
    resp.private_data = req.private_data;
    const Schema* schema = detail::find_schema(schema_.resources, "resource", req.type_name, diags);
    if (!schema) return resp;
    const Type type = schema->block.implied_type();
    resp.new_identity = req.current_identity;
    const Value& current = req.current_state;
    secrets.add(schema->block, current);
    const Value& current_identity = req.current_identity;
    if (current.is_null()) {
      resp.new_state = current;
      return resp;
    }
    // Not configured yet: the stored state stands until a later run can refresh it.
    if (defers(req.deferral_allowed)) {
      resp.deferred = DeferralReason::ProviderConfigUnknown;
      resp.new_state = current;
      return resp;
    }
    ResourceData d(*schema, current, Value::null(type), Value::null(type));
    d.set_private_data(req.private_data);
    d.set_given_identity(current_identity);
    d.set_deferrable(req.deferral_allowed ? Deferrable::Allowed : Deferrable::NotByCli);
    diags.append(session.call(Operation::Read, req.type_name, d));
    if (diags.has_errors() || d.deferred()) {
      // Failed, or waiting for a later run (the script deferred): the stored state stands.
      resp.deferred = diags.has_errors() ? std::nullopt : d.deferred();
      resp.new_state = current;
      return resp;
    }
    resp.private_data = d.private_data();
    // A value read back that the resource counts as the same as the stored one keeps the stored
    // spelling: no drift to report.
    // The same for the zero value of an argument read back where the state holds null, or the
    // other way round (see zero_values.h).
    const Value read = keep_zero_spelling(
        schema->block, current,
        detail::keep_same_values(session, req.type_name, *schema, current, d.result(), diags));
    resp.new_state = without_write_only(schema->block, read);
    // An object stored before its resource had an identity (or imported by id) gets one here.
    if (schema->identity) {
      const Value identity = identity_of(*schema->identity, read, d);
      Diagnostics refused;
      if (!read.is_null()) {
        check_identity(*schema->identity, current_identity, identity, req.type_name + ": read",
                       refused);
      }
      // As in apply: a refused identity is not stored, the stored one stays.
      resp.new_identity =
          refused.has_errors() && !current_identity.is_null() ? current_identity : identity;
      diags.append(refused);
    }
    return resp;
  });
}

}  // namespace luaform::engine
