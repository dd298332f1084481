#include "host/engine/rpc/service_support.h"

#include "host/engine/rules/equivalence.h"
#include "host/engine/rules/resource_identity.h"

namespace luaform::engine::detail {

const Schema* find_schema(const std::map<std::string, Schema>& schemas, const std::string& kind,
                          const std::string& type_name, Diagnostics& diags) {
  auto it = schemas.find(type_name);
  if (it != schemas.end()) return &it->second;
  diags.error("Unknown " + kind + " type \"" + type_name + "\"",
              "This provider has no " + kind + " named \"" + type_name +
                  "\". Check that its script loaded without errors.");
  return nullptr;
}

Value keep_same_values(Session& session, const std::string& type_name, const Schema& schema,
                       const Value& earlier, const Value& later, Diagnostics& diags,
                       Keeping keeping) {
  if (!has_equivalence(schema.block)) return later;
  return keep_equivalent(schema.block, earlier, later,
                         session.equivalence(type_name, later, diags, keeping));
}

bool start_from_identity(const Schema& schema, const Value& given, const std::string& type_name,
                         ResourceData& d, Diagnostics& diags) {
  for (const IdentityAttribute& a : schema.identity->attributes) {
    if (a.required_for_import && given.get_attribute(a.name).is_null()) {
      diags.error("Cannot import " + type_name + " by identity",
                  "The identity leaves \"" + a.name + "\" unset, and it is required for import.",
                  {AttributeName{a.name}});
    }
  }
  if (diags.has_errors()) return false;
  d.set_given_identity(given);
  const Value start = object_from_identity(schema.block, given);
  for (const auto& [name, value] : start.attributes()) {
    if (value.is_null()) continue;
    if (name == "id") {
      d.set_id(value.as_string());
    } else {
      diags.append(d.set(name, value));
    }
  }
  return !diags.has_errors();
}

}  // namespace luaform::engine::detail
