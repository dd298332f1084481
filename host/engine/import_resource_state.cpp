// ImportResourceState by id: the imported object holds only its id; the CLI then calls
// ReadResource, which fills in the rest (or reports that the object does not exist).
#include "host/engine/provider_service.h"
#include "host/engine/service_support.h"

namespace luaform::engine {

ImportResponse ProviderService::import_resource_state(const ImportRequest& req) const {
  ImportResponse resp;
  Diagnostics& diags = resp.diagnostics;
  const Schema* schema = detail::find_schema(schema_.resources, "resource", req.type_name, diags);
  if (!schema) return resp;
  if (!logic_->importable(req.type_name)) {
    diags.error("Resource " + req.type_name + " does not support import",
                "Its script declares no import function (for example import = tf.import_by_id).");
    return resp;
  }
  if (req.id.empty()) {
    diags.error("Import needs an id", "The import id for " + req.type_name + " is empty.");
    return resp;
  }
  const Type type = schema->block.implied_type();
  Value state = Value::object(type, {{"id", Value::string(req.id)}});
  resp.imported.push_back({req.type_name, detail::encode_dynamic(state, type), {}});
  return resp;
}

}  // namespace luaform::engine
