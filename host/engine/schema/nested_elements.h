// How the elements of a nested block in one value correspond to the elements of the same block
// in another value (the planned value to the prior state, the planned value to the config), so
// that the plan rules can be applied element by element at any depth.
#pragma once

#include <functional>
#include <vector>

#include "host/engine/schema/schema.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// f(element, prior_element, config_element) -> the new element.
using ElementRule = std::function<Value(const Value&, const Value&, const Value&)>;

// Rebuilds the nested block value `v` (a known object, list, set or map of `nested`'s objects)
// with `rule` applied to each element. Counterparts are found as Terraform finds them: single
// blocks directly, lists by index, maps by key; a set element's prior counterpart is an equal
// element (a set element that changed is a new element), and its config counterpart is the
// config element that agrees on every attribute the configuration decides. A missing
// counterpart is passed as a null object. Null and unknown values are returned unchanged.
Value map_nested_elements(const NestedBlock& nested, const Value& v, const Value& prior,
                          const Value& config, const ElementRule& rule);

// True when `planned` (an object of `block`'s type) can have come from the config object
// `config`: at every depth, attributes that are not computed are equal, and a computed
// attribute is either left null by the config or equal to it. This is how the CLI pairs the
// elements of a set of blocks with the configuration they came from.
bool from_config(const Block& block, const Value& planned, const Value& config);

// For each of `elements` (objects of `block`), the element of the set `config` it can have come
// from (see from_config), each config element taken at most once; nullptr where there is none.
// O(n log n) in the number of elements.
std::vector<const Value*> config_counterparts(const Block& block, const Value::List& elements,
                                              const Value& config);

// The attribute of an object that may be null or unknown (then: a null of the attribute's type).
Value attribute_of(const Value& object, const std::string& name, const Type& type);

}  // namespace luaform::engine
