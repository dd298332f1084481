#include "host/engine/schema/nested_elements.h"

#include <algorithm>
#include <map>
#include <vector>

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

bool less(const Value& a, const Value& b) {
  return Value::compare(a, b) < 0;
}

// The first element of the set `set` equal to `element`, found by binary search: sets are kept
// sorted by Value::compare.
const Value* equal_element(const Value& set, const Value& element) {
  if (!usable(set)) return nullptr;
  const auto& elements = set.elements();
  auto it = std::lower_bound(elements.begin(), elements.end(), element, less);
  return it != elements.end() && *it == element ? &*it : nullptr;
}

// The elements of a set block's config value, each taken at most once by the planned element
// it explains. Lookups stay O(log n) so that planning a set of n blocks is O(n log n) (a plain
// scan per element made 10,000 blocks take seconds).
class ConfigElements {
 public:
  ConfigElements(const Block& block, const Value& config) : block_(block) {
    if (!usable(config)) return;
    elements_ = &config.elements();
    used_.assign(elements_->size(), false);
  }

  // An unused config element equal to `element`. Called for every element before any
  // take_from_config, so that equal pairs are settled first.
  const Value* take_equal(const Value& element) {
    if (!elements_) return nullptr;
    auto it = std::lower_bound(elements_->begin(), elements_->end(), element, less);
    for (; it != elements_->end() && *it == element; ++it) {
      const auto i = static_cast<size_t>(it - elements_->begin());
      if (!used_[i]) return take(i);
    }
    return nullptr;
  }

  // An unused config element `element` can have been planned from (see from_config).
  const Value* take_from_config(const Value& element) {
    if (!elements_) return nullptr;
    index_unused();
    if (usable(element)) {
      auto found = by_decided_.find(decided_by_config(element));
      if (found != by_decided_.end()) {
        for (size_t i : found->second) {
          if (!used_[i] && from_config(block_, element, (*elements_)[i])) return take(i);
        }
      }
    }
    for (size_t i : unusual_) {
      if (!used_[i] && from_config(block_, element, (*elements_)[i])) return take(i);
    }
    return nullptr;
  }

 private:
  // The attributes from_config requires to be equal: every one that is neither computed nor
  // nested. Elements that differ in them cannot be counterparts.
  std::vector<Value> decided_by_config(const Value& object) const {
    std::vector<Value> key;
    for (const auto& attr : block_.attributes) {
      if (!attr.computed && !attr.nested) key.push_back(object.get_attribute(attr.name));
    }
    return key;
  }

  // Built on the first element without an equal counterpart: in most plans every element has
  // one, and the index would be wasted work.
  void index_unused() {
    if (indexed_) return;
    indexed_ = true;
    for (size_t i = 0; i < elements_->size(); ++i) {
      if (used_[i]) continue;
      const Value& c = (*elements_)[i];
      if (usable(c)) {
        by_decided_[decided_by_config(c)].push_back(i);
      } else {
        unusual_.push_back(i);
      }
    }
  }

  const Value* take(size_t i) {
    used_[i] = true;
    return &(*elements_)[i];
  }

  struct KeyLess {
    bool operator()(const std::vector<Value>& a, const std::vector<Value>& b) const {
      return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), less);
    }
  };

  const Block& block_;
  const Value::List* elements_ = nullptr;
  std::vector<bool> used_;
  bool indexed_ = false;
  std::map<std::vector<Value>, std::vector<size_t>, KeyLess> by_decided_;
  std::vector<size_t> unusual_;  // null or unknown config elements: compared one by one
};

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

std::vector<const Value*> config_counterparts(const Block& block, const Value::List& elements,
                                              const Value& config) {
  // Exact matches are taken first, so that a configured value is never credited to an element
  // it did not produce.
  ConfigElements configs(block, config);
  std::vector<const Value*> configured(elements.size(), nullptr);
  for (size_t i = 0; i < elements.size(); ++i) configured[i] = configs.take_equal(elements[i]);
  for (size_t i = 0; i < elements.size(); ++i) {
    if (!configured[i]) configured[i] = configs.take_from_config(elements[i]);
  }
  return configured;
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
      // Each config element explains one planned element.
      const Value::List& elements = v.elements();
      const std::vector<const Value*> configured =
          config_counterparts(nested.block, elements, config);
      Value::List out;
      out.reserve(elements.size());
      for (size_t i = 0; i < elements.size(); ++i) {
        out.push_back(
            rule(elements[i], or_none(equal_element(prior, elements[i])), or_none(configured[i])));
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
