#include "host/engine/rules/equivalence.h"

#include <algorithm>

#include "host/engine/schema/nested_elements.h"

namespace luaform::engine {
namespace {

bool present(const Value& v) {
  return v.is_wholly_known() && !v.is_null();
}

Value keep_in_nested(const NestedBlock& nested, const Value& earlier, const Value& later,
                     const SameValue& same, const AttributePath& path) {
  if (!earlier.is_known() || earlier.is_null() || !later.is_known() || later.is_null()) {
    return later;
  }
  switch (nested.nesting) {
    case NestingMode::Single:
    case NestingMode::Group:
      return keep_equivalent(nested.block, earlier, later, same, path);
    case NestingMode::List: {
      Value::List elements = later.elements();
      const size_t n = std::min(elements.size(), earlier.elements().size());
      for (size_t i = 0; i < n; ++i) {
        elements[i] = keep_equivalent(nested.block, earlier.elements()[i], elements[i], same,
                                      child_path(path, ElementIndex{static_cast<int64_t>(i)}));
      }
      return Value::list(later.type().element(), std::move(elements));
    }
    case NestingMode::Map: {
      Value::Object elements = later.attributes();
      for (auto& [key, element] : elements) {
        auto it = earlier.attributes().find(key);
        if (it == earlier.attributes().end()) continue;
        element = keep_equivalent(nested.block, it->second, element, same,
                                  child_path(path, ElementKey{key}));
      }
      return Value::map(later.type().element(), std::move(elements));
    }
    case NestingMode::Set:
      return later;
  }
  return later;
}

}  // namespace

bool has_equivalence(const Block& block) {
  const auto objects = block.nested_objects();
  return std::any_of(block.attributes.begin(), block.attributes.end(),
                     [](const Attribute& a) { return a.has_equivalence; }) ||
         std::any_of(objects.begin(), objects.end(),
                     [](const NestedBlock* nb) { return has_equivalence(nb->block); });
}

Value keep_equivalent(const Block& block, const Value& earlier, const Value& later,
                      const SameValue& same, const AttributePath& path) {
  if (!earlier.is_known() || earlier.is_null() || !later.is_known() || later.is_null()) {
    return later;
  }
  Value out = later;
  for (const auto& attr : block.attributes) {
    if (!attr.has_equivalence) continue;
    const Value before = attribute_of(earlier, attr.name, attr.type);
    const Value after = attribute_of(later, attr.name, attr.type);
    if (!present(before) || !present(after) || before == after) continue;
    if (same(child_path(path, AttributeName{attr.name}), before, after)) {
      out = out.with_attribute(attr.name, before);
    }
  }
  for (const NestedBlock* nested : block.nested_objects()) {
    if (!has_equivalence(nested->block)) continue;
    const Type type = nested->implied_type();
    out = out.with_attribute(nested->type_name,
                             keep_in_nested(*nested, attribute_of(earlier, nested->type_name, type),
                                            attribute_of(out, nested->type_name, type), same,
                                            child_path(path, AttributeName{nested->type_name})));
  }
  return out;
}

}  // namespace luaform::engine
