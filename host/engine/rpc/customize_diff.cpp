#include "host/engine/rpc/customize_diff.h"

#include <algorithm>

#include "host/engine/rpc/service_support.h"
#include "host/engine/rules/resource_data.h"

namespace luaform::engine {
namespace {

// The plan may only choose values the CLI lets a provider choose: those of computed
// attributes that the configuration leaves null. The id is one: an update that gives the object
// a new id (a rename, where the name is the id) plans it unknown.
const Attribute* plannable(const Schema& schema, const Value& config, const std::string& key,
                           const std::string& what, Diagnostics& diags) {
  const Attribute* attr = schema.block.find_attribute(key);
  const bool config_sets =
      attr && !config.is_null() && config.is_known() && !config.get_attribute(key).is_null();
  if (attr && attr->computed && !config_sets) return attr;
  diags.error(what + " cannot plan \"" + key + "\"",
              "customize_diff may set or make unknown only computed attributes that the "
              "configuration leaves unset; \"" +
                  key + "\" is decided by the configuration.",
              {AttributeName{key}});
  return nullptr;
}

}  // namespace

Value customize_diff(Session& session, const PlanRequest& req, const Schema& schema,
                     const Value& planned, PlanResponse& resp) {
  const std::string& type_name = req.type_name;
  const Value& prior = req.prior_state;
  const Value& config = req.config;
  std::vector<AttributePath>& requires_replace = resp.requires_replace;
  Diagnostics& diags = resp.diagnostics;
  ResourceData d(schema, prior, config, planned);
  d.allow_plan_changes();
  if (req.store_planned_private) d.set_planned_private_kept();
  d.set_deferrable(req.deferral_allowed ? Deferrable::Allowed : Deferrable::NotByCli);
  d.set_private_data(resp.planned_private);
  Diagnostics call = session.call(Operation::CustomizeDiff, type_name, d);
  diags.append(call);
  if (call.has_errors()) return planned;
  resp.planned_private = d.private_data();
  if (d.deferred()) {
    // Waiting for a later run: the plan shown meanwhile is the schema's.
    resp.deferred = d.deferred();
    return planned;
  }

  const std::string what = type_name + ": customize_diff";
  Diagnostics problems;
  Value out = planned;
  for (const auto& [key, value] : d.set_values()) {
    if (plannable(schema, config, key, what, problems)) out = out.with_attribute(key, value);
  }
  for (const auto& key : d.new_computed()) {
    if (const Attribute* attr = plannable(schema, config, key, what, problems)) {
      out = out.with_attribute(key, Value::unknown(attr->type, attr->refine));
    }
  }
  if (!prior.is_null()) {
    for (const auto& key : d.forced_new()) {
      if (prior.get_attribute(key) == out.get_attribute(key)) continue;
      AttributePath path{AttributeName{key}};
      if (std::find(requires_replace.begin(), requires_replace.end(), path) ==
          requires_replace.end()) {
        requires_replace.push_back(std::move(path));
      }
    }
  }
  diags.append(problems);
  return problems.has_errors() ? planned : out;
}

}  // namespace luaform::engine
