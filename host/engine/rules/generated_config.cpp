#include "host/engine/rules/generated_config.h"

#include "host/engine/rules/zero_values.h"
#include "host/engine/schema/nested_elements.h"

namespace luaform::engine {
namespace {

// True when `value` is what leaving the argument out gives: null, its default, or (without a
// default) the zero value. An optional and computed argument left out keeps its stored value.
bool same_as_left_out(const Attribute& attr, const Value& value) {
  if (value.is_null()) return true;
  if (attr.default_value) return value == *attr.default_value;
  return is_zero_value(value);
}

Value generated(const Block& block, const Value& object, bool top);

// A nested block's or nested attribute's value, element by element.
Value generated_elements(const NestedBlock& nested, const Value& value) {
  const Value none = Value::null(nested.block.implied_type());
  return map_nested_elements(nested, value, none, none,
                             [&nested](const Value& element, const Value&, const Value&) {
                               return generated(nested.block, element, false);
                             });
}

// What the configuration says of `attr` (null: nothing, it is left out). A deprecated argument
// is written when it holds what leaving it out would not give: the plan of the configuration
// must have nothing to change, and its deprecation warning then tells what to use instead.
Value generated_attribute(const Attribute& attr, const Value& value, bool top) {
  const bool never_configured = attr.write_only || !attr.removed.empty() ||
                                (attr.computed && !attr.optional && !attr.required) ||
                                (top && attr.name == "id");
  if (never_configured) return Value::null(attr.type);
  if (attr.nested) {
    if (value.is_null() || (!attr.required && is_zero_value(value))) return Value::null(attr.type);
    return generated_elements(*attr.nested, value);
  }
  if (!attr.required && same_as_left_out(attr, value)) return Value::null(attr.type);
  return value;
}

Value generated(const Block& block, const Value& object, bool top) {
  if (!object.is_known() || object.is_null()) return object;
  Value out = object;
  for (const auto& attr : block.attributes) {
    out = out.with_attribute(attr.name,
                             generated_attribute(attr, object.get_attribute(attr.name), top));
  }
  for (const auto& nested : block.blocks) {
    const Value value = object.get_attribute(nested.type_name);
    if (nested.operational) {
      out = out.with_attribute(nested.type_name, Value::null(nested.implied_type()));
    } else {
      out = out.with_attribute(nested.type_name, generated_elements(nested, value));
    }
  }
  return out;
}

}  // namespace

Value config_from_state(const Block& block, const Value& state) {
  return generated(block, state, true);
}

}  // namespace luaform::engine
