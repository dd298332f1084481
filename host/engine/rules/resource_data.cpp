#include "host/engine/rules/resource_data.h"

#include <charconv>
#include <chrono>
#include <vector>

#include "host/engine/rules/secret_scope.h"
#include "host/engine/rules/secrets.h"
#include "host/engine/rules/zero_values.h"
#include "host/engine/schema/schema_rules.h"
#include "host/engine/schema/spelling.h"
#include "host/engine/value/value_walk.h"

namespace luaform::engine {
namespace {

// The type found by following `parts[1..]` below a value of type `t`.
std::optional<Type> descend_type(Type t, const std::vector<std::string>& parts) {
  for (size_t i = 1; i < parts.size(); ++i) {
    switch (t.kind()) {
      case TypeKind::List:
      case TypeKind::Set:
      case TypeKind::Map:
        t = t.element();
        break;
      case TypeKind::Object: {
        auto it = t.attributes().find(parts[i]);
        if (it == t.attributes().end()) return std::nullopt;
        t = it->second;
        break;
      }
      case TypeKind::Tuple: {
        size_t index = 0;
        auto [p, ec] = std::from_chars(parts[i].data(), parts[i].data() + parts[i].size(), index);
        if (ec != std::errc() || index >= t.tuple_elements().size()) return std::nullopt;
        t = t.tuple_elements()[index];
        break;
      }
      default:
        return std::nullopt;
    }
  }
  return t;
}

// Follows `parts[1..]` into `v`; a missing element or an unknown value reads as null,
// the way helper/schema reads a value that is not (yet) set.
Value descend_value(const Value& v, const Type& leaf_type, const std::vector<std::string>& parts) {
  Value found = value_at_parts(v, parts, 1);
  return found.is_known() && !found.is_null() ? found : Value::null(leaf_type);
}

}  // namespace

ResourceData::ResourceData(const Schema& schema, Value state, Value config, Value planned)
    : schema_(&schema),
      state_(std::move(state)),
      config_(std::move(config)),
      planned_(std::move(planned)) {}

Value ResourceData::base() const {
  if (!planned_.is_null()) return planned_;
  if (!state_.is_null()) return state_;
  if (!config_.is_null()) return config_;
  return Value::null(schema_->block.implied_type());
}

std::string ResourceData::id() const {
  if (id_) return *id_;
  if (cleared_) return "";
  Value id = base().is_null() ? Value() : base().get_attribute("id");
  if (id.is_known() && !id.is_null() && id.type().kind() == TypeKind::String) return id.as_string();
  return "";
}

void ResourceData::set_id(std::string id) {
  cleared_ = id.empty();
  id_ = std::move(id);
}

std::optional<Type> ResourceData::type_of(const std::string& address) const {
  auto parts = split_address(address);
  Type object_type = schema_->block.implied_type();
  auto it = object_type.attributes().find(parts[0]);
  if (it == object_type.attributes().end()) return std::nullopt;
  return descend_type(it->second, parts);
}

bool ResourceData::is_unknown(const std::string& address) const {
  if (!type_of(address)) return false;
  auto parts = split_address(address);
  if (auto it = set_.find(parts[0]); it != set_.end()) {
    return value_at_parts(it->second, parts, 1).is_unknown();
  }
  Value b = base();
  if (b.is_unknown()) return true;
  return b.is_known() && value_at_parts(b.get_attribute(parts[0]), parts, 1).is_unknown();
}

Value ResourceData::get(const std::string& address) const {
  auto parts = split_address(address);
  auto leaf = type_of(address);
  if (!leaf) return Value();
  Value top;
  const Attribute* attr = schema_->block.find_attribute(parts[0]);
  if (auto it = set_.find(parts[0]); it != set_.end()) {
    top = it->second;
  } else if (attr != nullptr && attr->write_only) {
    // Never planned or saved: the configuration is the only place it is.
    top = config_.is_known() && !config_.is_null() ? config_.get_attribute(parts[0])
                                                   : Value::null(attr->type);
  } else {
    Value b = base();
    top = b.is_known() ? b.get_attribute(parts[0])
                       : Value::null(schema_->block.implied_type().attributes().at(parts[0]));
  }
  return descend_value(top, *leaf, parts);
}

Diagnostics ResourceData::set(const std::string& key, Value v) {
  Diagnostics diags;
  AttributePath path{AttributeName{key}};
  Type object_type = schema_->block.implied_type();
  auto it = object_type.attributes().find(key);
  if (it == object_type.attributes().end()) {
    diags.error("Unknown attribute \"" + key + "\"",
                "The resource schema has no attribute named \"" + key + "\".", path);
    return diags;
  }
  if (key == "id") {
    diags.error("Attribute \"id\" is set with set_id",
                "The id has a setter of its own" + written_as(Hint::SetId) + ".", path);
    return diags;
  }
  if (const Attribute* attr = schema_->block.find_attribute(key); attr && attr->write_only) {
    diags.error("Attribute \"" + key + "\" is write-only",
                "Its value comes from the configuration and is never saved, so it cannot be set.",
                path);
    return diags;
  }
  if (v.type() != it->second && !(v.is_null() && v.type().is_dynamic())) {
    diags.error(
        "Wrong type for attribute \"" + key + "\"",
        "Expected " + it->second.friendly_name() + ", got " + v.type().friendly_name() + ".", path);
    return diags;
  }
  if (v.is_null()) v = Value::null(it->second);
  // What a function sets sensitive (a generated password) is a secret of the RPC from now on,
  // for the log lines it writes next as much as for what the RPC reports.
  std::vector<std::string> secrets;
  add_sensitive_texts(schema_->block, key, v, secrets);
  for (std::string& secret : secrets) add_secret_in_scope(std::move(secret));
  set_[key] = std::move(v);
  return diags;
}

std::pair<Value, Value> ResourceData::get_change(const std::string& address) const {
  auto leaf = type_of(address);
  if (!leaf) return {Value(), Value()};
  auto parts = split_address(address);
  Value old_top = state_.is_known() ? state_.get_attribute(parts[0]) : Value::null(*leaf);
  return {descend_value(old_top, *leaf, parts), get(address)};
}

Duration ResourceData::timeout(const std::string& operation) const {
  // Delete has no configuration: the timeouts the object was created with still apply.
  const Value& source = config_.is_known() && !config_.is_null() ? config_ : state_;
  const Value block =
      source.is_known() && !source.is_null() && source.type().attributes().count("timeouts")
          ? source.get_attribute("timeouts")
          : Value();
  if (block.is_known() && !block.is_null() && block.type().attributes().count(operation)) {
    const Value configured = block.get_attribute(operation);
    if (configured.is_known() && !configured.is_null()) {
      if (auto d = parse_duration(configured.as_string())) return *d;
    }
  }
  for (const char* key : {operation.c_str(), "default"}) {
    auto it = schema_->timeouts.find(key);
    if (it != schema_->timeouts.end()) return it->second;
  }
  return std::chrono::minutes(20);
}

Value ResourceData::identity() const {
  if (!schema_->identity) return Value::null(Type::dynamic());
  const Type type = schema_->identity->implied_type();
  Value identity = given_identity_.type() == type && given_identity_.is_known() ? given_identity_
                                                                                : Value::null(type);
  if (identity_set_.empty()) return identity;
  if (identity.is_null()) {
    std::map<std::string, Value> nulls;
    for (const auto& [name, t] : type.attributes()) nulls.emplace(name, Value::null(t));
    identity = Value::object(type, std::move(nulls));
  }
  for (const auto& [name, v] : identity_set_) identity = identity.with_attribute(name, v);
  return identity;
}

Diagnostics ResourceData::defer(DeferralReason reason) {
  Diagnostics diags = deferral_problem(deferrable_);
  if (!diags.has_errors()) deferred_ = reason;
  return diags;
}

Diagnostics ResourceData::set_identity(const std::string& name, Value v) {
  Diagnostics diags;
  const AttributePath path{AttributeName{name}};
  if (!schema_->identity) {
    diags.error("The resource has no identity", "Declare one" + written_as(Hint::DeclareIdentity) +
                                                    " before setting identity attributes.");
    return diags;
  }
  const IdentityAttribute* attr = schema_->identity->find(name);
  if (!attr) {
    diags.error("Unknown identity attribute \"" + name + "\"",
                "The resource's identity has no attribute named \"" + name + "\".", path);
    return diags;
  }
  if (v.is_null()) v = Value::null(attr->type);
  if (v.type() != attr->type) {
    diags.error(
        "Wrong type for identity attribute \"" + name + "\"",
        "Expected " + attr->type.friendly_name() + ", got " + v.type().friendly_name() + ".", path);
    return diags;
  }
  identity_set_[name] = std::move(v);
  return diags;
}

bool ResourceData::has_change(const std::string& address) const {
  // A write-only value is never stored, so there is nothing to tell a change from.
  const Attribute* attr = schema_->block.find_attribute(split_address(address)[0]);
  if (attr != nullptr && attr->write_only) return false;
  auto [old_value, new_value] = get_change(address);
  return !same_but_for_zero(old_value, new_value);
}

Value ResourceData::values() const {
  const Type object_type = schema_->block.implied_type();
  const Value b = base();
  const bool has_base = b.is_known() && !b.is_null();
  Value::Object attrs;
  const bool has_state = state_.is_known() && !state_.is_null();
  for (const auto& [name, type] : object_type.attributes()) {
    Value v;
    if (auto it = set_.find(name); it != set_.end()) {
      v = it->second;
    } else {
      v = has_base ? b.get_attribute(name) : Value::null(type);
    }
    // What the function left unknown keeps its stored value: an update never loses a value it
    // did not touch. A new object has none, so it is null.
    attrs[name] = has_state ? unknowns_from(v, state_.get_attribute(name)) : unknowns_to_null(v);
  }
  if (object_type.attributes().count("id")) {
    const std::string current_id = id();
    attrs["id"] = current_id.empty() ? Value::null(Type::string()) : Value::string(current_id);
  }
  return with_empty_blocks(schema_->block, Value::object(object_type, std::move(attrs)));
}

Value ResourceData::result() const {
  if (id().empty()) return Value::null(schema_->block.implied_type());
  return values();
}

Value ResourceData::result_after_failure() const {
  Value out = result();
  if (!partial_ || out.is_null()) return out;
  for (const auto& [name, type] : out.type().attributes()) {
    if (name == "id" || partial_keys_.count(name)) continue;
    const Value prior =
        state_.is_known() && !state_.is_null() ? state_.get_attribute(name) : Value::null(type);
    out = out.with_attribute(name, prior);
  }
  return with_empty_blocks(schema_->block, out);
}

std::vector<std::string> ResourceData::sensitive_texts() const {
  std::vector<std::string> out;
  for (const Value* v : {&state_, &config_, &planned_}) {
    auto found = engine::sensitive_texts(schema_->block, *v);
    out.insert(out.end(), std::make_move_iterator(found.begin()),
               std::make_move_iterator(found.end()));
  }
  // What values() holds beyond these three (which are its base) is what the script set: only
  // those are walked, without building the whole object.
  for (const auto& [name, value] : set_) add_sensitive_texts(schema_->block, name, value, out);
  return out;
}

}  // namespace luaform::engine
