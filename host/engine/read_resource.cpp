// ReadResource: refresh. A read that clears the id reports that the object is gone, and the
// CLI removes it from state; a read that fails keeps the current state.
#include "host/engine/provider_service.h"
#include "host/engine/schema_rules.h"
#include "host/engine/service_support.h"

namespace luaform::engine {

ReadResponse ProviderService::read_resource(const ReadRequest& req) const {
  ReadResponse resp;
  Diagnostics& diags = resp.diagnostics;
  resp.private_data = req.private_data;
  const Schema* schema = detail::find_schema(schema_.resources, "resource", req.type_name, diags);
  if (!schema) return resp;
  const Type type = schema->block.implied_type();
  Value current = detail::decode_dynamic(req.current_state, type, diags);
  if (diags.has_errors() || current.is_null()) {
    resp.new_state = req.current_state;
    return resp;
  }
  ResourceData d(*schema, current, Value::null(type), Value::null(type));
  d.set_private_data(req.private_data);
  diags.append(detail::guarded_call(*logic_, Operation::Read, req.type_name, d));
  if (diags.has_errors()) {
    resp.new_state = detail::encode_dynamic(current, type);
    return resp;
  }
  resp.private_data = d.private_data();
  // A value read back that the resource counts as the same as the stored one keeps the stored
  // spelling: no drift to report.
  const Value read =
      detail::keep_same_values(*logic_, req.type_name, *schema, current, d.result(), diags);
  resp.new_state = detail::encode_dynamic(without_write_only(schema->block, read), type);
  return resp;
}

}  // namespace luaform::engine
