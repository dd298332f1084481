// PlanResourceChange: the diff rules. The CLI proposes "config, plus prior values for
// computed attributes the config leaves null"; the plan fills in defaults, marks values the
// provider will compute as unknown, and says which changes force a replacement.
#include "host/engine/provider_service.h"
#include "host/engine/schema_rules.h"
#include "host/engine/service_support.h"

namespace luaform::engine {
namespace {

bool is_argument(const Attribute& attr) {
  return attr.required || attr.optional;
}

// True when a change to this attribute can only be made by replacing the resource.
bool forces_new(const Attribute& attr, bool has_update) {
  if (attr.force_new) return true;
  // Without an update function, every argument the author can set forces a new resource.
  return !has_update && is_argument(attr);
}

// Computed attributes the configuration leaves null become unknown: on create, and on update
// whenever anything changes, because the provider may recompute them (the framework's rule;
// helper/schema relied on the legacy type system's leniency here instead). The id of an
// existing object is kept: it identifies the object being updated.
Value mark_computed_unknown(const Block& block, Value planned, const Value& config, bool create) {
  for (const auto& attr : block.attributes) {
    if (!attr.computed || attr.default_value) continue;
    if (!config.get_attribute(attr.name).is_null()) continue;
    if (!create && attr.name == "id") continue;
    planned = planned.with_attribute(attr.name, Value::unknown(attr.type));
  }
  return planned;
}

}  // namespace

PlanResponse ProviderService::plan_resource_change(const PlanRequest& req) const {
  PlanResponse resp;
  Diagnostics& diags = resp.diagnostics;
  const Schema* schema = detail::find_schema(schema_.resources, "resource", req.type_name, diags);
  if (!schema) return resp;
  const Type type = schema->block.implied_type();
  Value prior = detail::decode_dynamic(req.prior_state, type, diags);
  Value proposed = detail::decode_dynamic(req.proposed_new_state, type, diags);
  Value config = detail::decode_dynamic(req.config, type, diags);
  if (diags.has_errors()) return resp;
  resp.planned_private = req.prior_private;

  // Destroy: nothing to plan (only called when the plan_destroy capability is advertised).
  if (proposed.is_null()) {
    resp.planned_state = detail::encode_dynamic(proposed, type);
    return resp;
  }

  const bool create = prior.is_null();
  Value planned = with_defaults(schema->block, proposed, config);
  if (create) {
    planned = mark_computed_unknown(schema->block, planned, config, true);
  } else if (planned != prior) {
    const bool has_update = logic_->has_update(req.type_name);
    for (const auto& attr : schema->block.attributes) {
      if (forces_new(attr, has_update) &&
          prior.get_attribute(attr.name) != planned.get_attribute(attr.name)) {
        resp.requires_replace.push_back({AttributeName{attr.name}});
      }
    }
    planned = mark_computed_unknown(schema->block, planned, config, false);
  }
  resp.planned_state = detail::encode_dynamic(planned, type);
  return resp;
}

}  // namespace luaform::engine
