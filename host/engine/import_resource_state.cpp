// ImportResourceState: the imported object holds the id the user gave, and whatever the
// resource's own import function set (it may read a composite id such as "region/name" into
// attributes, and set the real id); the CLI then calls ReadResource, which fills in the rest
// (or reports that the object does not exist). An imported object starts with the schema's
// defaults, as a created one does, so that a configuration leaving them out plans no change
// after the import (helper/schema left them null, and the next plan "added" them). Both CLIs
// refuse more than one imported object ("Multiple import states not supported"), so exactly one
// is returned.
#include "host/engine/provider_service.h"
#include "host/engine/schema_rules.h"
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
  ResourceData d(*schema, Value::null(type), Value::null(type), Value::null(type));
  d.set_id(req.id);
  diags.append(detail::guarded_call(*logic_, Operation::Import, req.type_name, d));
  if (diags.has_errors()) return resp;
  const Value result = d.result();
  const Value state =
      without_write_only(schema->block, with_defaults(schema->block, result, result));
  if (state.is_null()) {
    diags.error("Cannot import " + req.type_name + " \"" + req.id + "\"",
                "The import function cleared the id: there is no such object to import.");
    return resp;
  }
  resp.imported.push_back({req.type_name, detail::encode_dynamic(state, type), d.private_data()});
  return resp;
}

}  // namespace luaform::engine
