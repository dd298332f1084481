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

bool nested_from_config(const NestedBlock& nested, const Value& planned, const Value& config);

// Pairs every config element with a distinct planned element it can have produced.
bool set_from_config(const Block& block, const Value::List& planned, const Value::List& config) {
  if (planned.size() != config.size()) return false;
  std::vector<bool> used(planned.size(), false);
  for (const Value& c : config) {
    bool found = false;
    for (size_t i = 0; i < planned.size() && !found; ++i) {
      if (!used[i] && from_config(block, planned[i], c)) used[i] = found = true;
    }
    if (!found) return false;
  }
  return true;
}

bool nested_from_config(const NestedBlock& nested, const Value& planned, const Value& config) {
  if (!usable(planned) || !usable(config)) return planned == config;
  switch (nested.nesting) {
    case NestingMode::Single:
    case NestingMode::Group:
      return from_config(nested.block, planned, config);
    case NestingMode::List: {
      const auto& p = planned.elements();
      const auto& c = config.elements();
      if (p.size() != c.size()) return false;
      for (size_t i = 0; i < p.size(); ++i) {
        if (!from_config(nested.block, p[i], c[i])) return false;
      }
      return true;
    }
    case NestingMode::Set:
      return set_from_config(nested.block, planned.elements(), config.elements());
    case NestingMode::Map: {
      if (planned.attributes().size() != config.attributes().size()) return false;
      for (const auto& [key, element] : planned.attributes()) {
        const Value* c = element_for_key(config, key);
        if (!c || !from_config(nested.block, element, *c)) return false;
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

bool from_config(const Block& block, const Value& planned, const Value& config) {
  if (!usable(planned) || !usable(config)) return planned == config;
  for (const auto& attr : block.attributes) {
    const Value c = config.get_attribute(attr.name);
    if (attr.computed && c.is_null()) continue;
    if (attr.nested) continue;  // compared element by element below
    if (planned.get_attribute(attr.name) != c) return false;
  }
  for (const NestedBlock* nested : block.nested_objects()) {
    if (!nested_from_config(*nested, planned.get_attribute(nested->type_name),
                            config.get_attribute(nested->type_name))) {
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
      // Each config element explains one planned element: exact matches are taken first, so
      // that a configured value is never credited to an element it did not produce.
      const Value::List* configs = usable(config) ? &config.elements() : nullptr;
      std::vector<bool> used(configs ? configs->size() : 0, false);
      auto take = [&](const Value& element, bool exact) -> const Value* {
        for (size_t i = 0; configs && i < configs->size(); ++i) {
          const Value& c = (*configs)[i];
          if (used[i]) continue;
          if (exact ? element == c : from_config(nested.block, element, c)) {
            used[i] = true;
            return &c;
          }
        }
        return nullptr;
      };
      const Value::List& elements = v.elements();
      std::vector<const Value*> configured(elements.size(), nullptr);
      for (size_t i = 0; i < elements.size(); ++i) configured[i] = take(elements[i], true);
      for (size_t i = 0; i < elements.size(); ++i) {
        if (!configured[i]) configured[i] = take(elements[i], false);
      }
      Value::List out;
      out.reserve(elements.size());
      for (size_t i = 0; i < elements.size(); ++i) {
        const Value* before = nullptr;
        if (usable(prior)) {
          auto it = std::find(prior.elements().begin(), prior.elements().end(), elements[i]);
          if (it != prior.elements().end()) before = &*it;
        }
        out.push_back(rule(elements[i], or_none(before), or_none(configured[i])));
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
