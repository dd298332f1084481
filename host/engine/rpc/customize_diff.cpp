#include "host/engine/rpc/customize_diff.h"

#include <algorithm>

#include "host/engine/rpc/service_support.h"
#include "host/engine/rules/resource_data.h"

namespace luaform::engine {
namespace {

// The plan may only choose values the CLI lets a provider choose: those of computed
// attributes that the configuration leaves null.
const Attribute* plannable(const Schema& schema, const Value& config, const std::string& key,
                           const std::string& what, Diagnostics& diags) {
  const Attribute* attr = schema.block.find_attribute(key);
  const bool config_sets =
      attr && !config.is_null() && config.is_known() && !config.get_attribute(key).is_null();
  if (attr && attr->computed && !config_sets && key != "id") return attr;
  diags.error(what + " cannot plan \"" + key + "\"",
              "customize_diff may set or make unknown only computed attributes that the "
              "configuration leaves unset; \"" +
                  key + "\" is decided by the configuration.",
              {AttributeName{key}});
  return nullptr;
}

}  // namespace

Value customize_diff(Session& session, const std::string& type_name, const Schema& schema,
                     const Value& prior, const Value& config, const Value& planned,
                     std::vector<AttributePath>& requires_replace, std::string& private_data,
                     bool planned_private_kept, Diagnostics& diags) {
  ResourceData d(schema, prior, config, planned);
  d.allow_plan_changes();
  if (planned_private_kept) d.set_planned_private_kept();
  d.set_private_data(private_data);
  Diagnostics call = session.call(Operation::CustomizeDiff, type_name, d);
  diags.append(call);
  if (call.has_errors()) return planned;
  private_data = d.private_data();

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
