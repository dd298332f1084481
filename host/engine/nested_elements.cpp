#include "host/engine/nested_elements.h"

#include <algorithm>

namespace luaform::engine {
namespace {

bool usable(const Value& v) {
  return v.is_known() && !v.is_null();
}

const Value* element_at(const Value& list, size_t i) {
  if (!usable(list) || i >= list.elements().size()) return nullptr;
  return &list.elements()[i];
}

const Value* element_for_key(const Value& map, const std::string& key) {
  if (!usable(map)) return nullptr;
  auto it = map.attributes().find(key);
  return it == map.attributes().end() ? nullptr : &it->second;
}

// Every element of `a` has a counterpart in `b` and the sizes agree.
bool same_configured_elements(const Block& block, const Value::List& a, const Value::List& b,
                              bool ordered) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (ordered) {
      if (!same_configured_values(block, a[i], b[i])) return false;
      continue;
    }
    if (std::none_of(b.begin(), b.end(), [&](const Value& other) {
          return same_configured_values(block, a[i], other);
        })) {
      return false;
    }
  }
  return true;
}

bool same_configured_nested(const NestedBlock& nested, const Value& a, const Value& b) {
  if (!usable(a) || !usable(b)) return a == b;
  switch (nested.nesting) {
    case NestingMode::Single:
    case NestingMode::Group:
      return same_configured_values(nested.block, a, b);
    case NestingMode::List:
      return same_configured_elements(nested.block, a.elements(), b.elements(), true);
    case NestingMode::Set:
      return same_configured_elements(nested.block, a.elements(), b.elements(), false);
    case NestingMode::Map: {
      if (a.attributes().size() != b.attributes().size()) return false;
      for (const auto& [key, element] : a.attributes()) {
        const Value* other = element_for_key(b, key);
        if (!other || !same_configured_values(nested.block, element, *other)) return false;
      }
      return true;
    }
  }
  return false;
}

}  // namespace

Value attribute_of(const Value& object, const std::string& name, const Type& type) {
  if (!usable(object)) return Value::null(type);
  return object.get_attribute(name);
}

bool same_configured_values(const Block& block, const Value& a, const Value& b) {
  if (!usable(a) || !usable(b)) return a == b;
  for (const auto& attr : block.attributes) {
    if (attr.computed) continue;
    if (a.get_attribute(attr.name) != b.get_attribute(attr.name)) return false;
  }
  for (const auto& nested : block.blocks) {
    if (!same_configured_nested(nested, a.get_attribute(nested.type_name),
                                b.get_attribute(nested.type_name))) {
      return false;
    }
  }
  return true;
}

Value map_nested_elements(const NestedBlock& nested, const Value& v, const Value& prior,
                          const Value& config, const ElementRule& rule) {
  if (!usable(v)) return v;
  // A block whose objects have dynamic attributes is itself dynamically typed; its elements
  // cannot be rebuilt with one element type, and scripts cannot declare such blocks anyway.
  if (v.type() != nested.implied_type()) return v;
  const Type object_type = nested.block.implied_type();
  const Value none = Value::null(object_type);
  auto or_none = [&](const Value* p) { return p ? *p : none; };

  switch (nested.nesting) {
    case NestingMode::Single:
    case NestingMode::Group:
      return rule(v, usable(prior) ? prior : none, usable(config) ? config : none);
    case NestingMode::List: {
      Value::List out;
      out.reserve(v.elements().size());
      for (size_t i = 0; i < v.elements().size(); ++i) {
        out.push_back(
            rule(v.elements()[i], or_none(element_at(prior, i)), or_none(element_at(config, i))));
      }
      return Value::list(v.type().element(), std::move(out));
    }
    case NestingMode::Set: {
      Value::List out;
      out.reserve(v.elements().size());
      for (const Value& element : v.elements()) {
        const Value* before = nullptr;
        if (usable(prior)) {
          auto it = std::find(prior.elements().begin(), prior.elements().end(), element);
          if (it != prior.elements().end()) before = &*it;
        }
        const Value* configured = nullptr;
        if (usable(config)) {
          auto it = std::find_if(
              config.elements().begin(), config.elements().end(),
              [&](const Value& c) { return same_configured_values(nested.block, element, c); });
          if (it != config.elements().end()) configured = &*it;
        }
        out.push_back(rule(element, or_none(before), or_none(configured)));
      }
      return Value::set(v.type().element(), std::move(out));
    }
    case NestingMode::Map: {
      Value::Object out;
      for (const auto& [key, element] : v.attributes()) {
        out[key] = rule(element, or_none(element_for_key(prior, key)),
                        or_none(element_for_key(config, key)));
      }
      return Value::map(v.type().element(), std::move(out));
    }
  }
  return v;
}

}  // namespace luaform::engine
