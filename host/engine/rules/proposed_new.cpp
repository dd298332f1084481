#include "host/engine/rules/proposed_new.h"

#include <map>
#include <vector>

#include "host/engine/schema/nested_elements.h"

namespace luaform::engine {
namespace {

Value proposed_nested(const NestedBlock& nested, const Value& prior, const Value& config);

bool usable(const Value& v) {
  return v.is_known() && !v.is_null();
}

// A config set element keeps the stored element it came from (paired as the plan pairs them);
// new elements have none.
Value proposed_set(const NestedBlock& nested, const Value& prior, const Value& config) {
  const Type element_type = nested.block.implied_type();
  std::map<const Value*, const Value*> stored_for;  // config element -> its stored element
  if (usable(prior)) {
    const auto counterparts = config_counterparts(nested.block, prior.elements(), config);
    for (size_t i = 0; i < counterparts.size(); ++i) {
      if (counterparts[i]) stored_for[counterparts[i]] = &prior.elements()[i];
    }
  }
  const Value no_prior = Value::null(element_type);
  Value::List elements;
  for (const Value& c : config.elements()) {
    auto found = stored_for.find(&c);
    elements.push_back(
        proposed_new_state(nested.block, found == stored_for.end() ? no_prior : *found->second, c));
  }
  return Value::set(element_type, std::move(elements));
}

Value proposed_nested(const NestedBlock& nested, const Value& prior, const Value& config) {
  if (!usable(config)) return config;
  if (nested.nesting == NestingMode::Set) return proposed_set(nested, prior, config);
  return map_nested_elements(
      nested, config, prior, config,
      [&nested](const Value&, const Value& prior_element, const Value& config_element) {
        return proposed_new_state(nested.block, prior_element, config_element);
      });
}

Value proposed_attribute(const Attribute& attribute, const Value& prior, const Value& config) {
  if (config.is_null() && attribute.computed) return prior;
  if (attribute.nested) return proposed_nested(*attribute.nested, prior, config);
  return config;
}

}  // namespace

Value proposed_new_state(const Block& block, const Value& prior, const Value& config) {
  if (config.is_null() || !config.is_known()) return config;
  Value::Object attributes;
  for (const Attribute& attribute : block.attributes) {
    attributes[attribute.name] =
        proposed_attribute(attribute, attribute_of(prior, attribute.name, attribute.type),
                           attribute_of(config, attribute.name, attribute.type));
  }
  for (const NestedBlock& nested : block.blocks) {
    const Type type = nested.implied_type();
    attributes[nested.type_name] =
        proposed_nested(nested, attribute_of(prior, nested.type_name, type),
                        attribute_of(config, nested.type_name, type));
  }
  return Value::object(config.type(), std::move(attributes));
}

}  // namespace luaform::engine
