#include "host/engine/rules/resource_identity.h"
#include "host/engine/schema/spelling.h"

#include <map>
#include <set>

namespace luaform::engine {
namespace {

// The CLI encodes identities as flat objects of these types only (Terraform's identity schema
// rules): a primitive, or a list of primitives.
bool identity_type_allowed(const Type& t) {
  if (t.is_primitive()) return true;
  return t.kind() == TypeKind::List && t.element().is_primitive();
}

// The value of attribute `name` of object `object`, or a null of `type` when the object is
// null, not known, or has no attribute of that name and type.
Value attribute_or_null(const Value& object, const std::string& name, const Type& type) {
  if (!object.is_known() || object.is_null() || object.type().kind() != TypeKind::Object) {
    return Value::null(type);
  }
  const auto& attrs = object.type().attributes();
  auto it = attrs.find(name);
  if (it == attrs.end() || it->second != type) return Value::null(type);
  const Value v = object.get_attribute(name);
  return v.is_known() ? v : Value::null(type);
}

}  // namespace

void validate_identity(const ResourceIdentity& identity, const std::string& where,
                       Diagnostics& diags) {
  if (identity.attributes.empty()) {
    diags.error(where + ": the identity has no attributes",
                "Declare at least one" + for_example(Hint::IdentityExample) + ".");
  }
  if (identity.version < 0) {
    diags.error(where + ": the identity version is negative", "Versions start at 0.");
  }
  std::set<std::string> seen;
  for (const IdentityAttribute& a : identity.attributes) {
    const std::string what = where + ": identity attribute \"" + a.name + "\"";
    if (!seen.insert(a.name).second) diags.error(what + " is declared twice", "");
    if (!identity_type_allowed(a.type)) {
      diags.error(what + " has type " + a.type.friendly_name(),
                  "Identity attributes are strings, numbers, bools or lists of one of them.");
    }
    if (a.required_for_import == a.optional_for_import) {
      diags.error(what + " needs exactly one of required_for_import and optional_for_import",
                  "required_for_import: an import by identity must give it; "
                  "optional_for_import: it may.");
    }
  }
}

Value identity_of(const ResourceIdentity& identity, const Value& state, const ResourceData& d) {
  const Type type = identity.implied_type();
  if (!state.is_known() || state.is_null()) return Value::null(type);
  const Value given = d.identity();
  std::map<std::string, Value> attrs;
  for (const IdentityAttribute& a : identity.attributes) {
    if (auto set = d.identity_set().find(a.name); set != d.identity_set().end()) {
      attrs.emplace(a.name, set->second);
      continue;
    }
    Value v = attribute_or_null(state, a.name, a.type);
    if (v.is_null()) v = attribute_or_null(given, a.name, a.type);
    attrs.emplace(a.name, std::move(v));
  }
  return Value::object(type, std::move(attrs));
}

void check_identity(const ResourceIdentity& identity, const Value& prior, const Value& now,
                    const std::string& what, Diagnostics& diags) {
  for (const IdentityAttribute& a : identity.attributes) {
    const AttributePath path{AttributeName{a.name}};
    const Value was = attribute_or_null(prior, a.name, a.type);
    const Value is = attribute_or_null(now, a.name, a.type);
    if (a.required_for_import && is.is_null()) {
      diags.error(what + " left identity attribute \"" + a.name + "\" unset",
                  "It is required for import, so every object needs it. Give the resource an "
                  "attribute of the same name and type, or set it in the identity" +
                      written_as(Hint::SetIdentity, a.name) + ".",
                  path);
      continue;
    }
    if (!identity.mutable_identity && !was.is_null() && was != is) {
      diags.error(what + " changed identity attribute \"" + a.name + "\"",
                  "An object keeps its identity for life, but it was " + was.to_display_string() +
                      " and is now " + is.to_display_string() +
                      ". Replace the object instead (force_new on the attribute it comes from), "
                      "or declare the identity mutable" +
                      written_as(Hint::MutableIdentity) + ".",
                  path);
    }
  }
}

bool identity_complete(const ResourceIdentity& identity, const Value& now) {
  if (!now.is_known() || now.is_null()) return false;
  for (const IdentityAttribute& a : identity.attributes) {
    if (a.required_for_import && attribute_or_null(now, a.name, a.type).is_null()) return false;
  }
  return true;
}

Value object_from_identity(const Block& block, const Value& identity) {
  const Type type = block.implied_type();
  std::map<std::string, Value> attrs;
  for (const auto& [name, t] : type.attributes()) {
    attrs.emplace(name, attribute_or_null(identity, name, t));
  }
  return Value::object(type, std::move(attrs));
}

}  // namespace luaform::engine
