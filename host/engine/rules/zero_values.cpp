#include "host/engine/rules/zero_values.h"

#include <algorithm>
#include <map>

#include "host/engine/schema/nested_elements.h"

namespace luaform::engine {
namespace {

bool usable(const Value& v) {
  return v.is_known() && !v.is_null();
}

bool holds_objects(const Type& collection) {
  return collection.element().kind() == TypeKind::Object;
}

struct CanonicalLess {
  bool operator()(const Value& a, const Value& b) const { return Value::compare(a, b) < 0; }
};

Value keep_in_nested(const NestedBlock& nested, const Value& earlier, const Value& later) {
  if (!usable(earlier) || !usable(later) || earlier == later) return later;
  const Block& block = nested.block;
  switch (nested.nesting) {
    case NestingMode::Single:
    case NestingMode::Group:
      return keep_zero_spelling(block, earlier, later);
    case NestingMode::List: {
      Value::List elements = later.elements();
      const size_t n = std::min(elements.size(), earlier.elements().size());
      for (size_t i = 0; i < n; ++i) {
        elements[i] = keep_zero_spelling(block, earlier.elements()[i], elements[i]);
      }
      return Value::list(later.type().element(), std::move(elements));
    }
    case NestingMode::Map: {
      Value::Object elements = later.attributes();
      for (auto& [key, element] : elements) {
        auto it = earlier.attributes().find(key);
        if (it != earlier.attributes().end()) {
          element = keep_zero_spelling(block, it->second, element);
        }
      }
      return Value::map(later.type().element(), std::move(elements));
    }
    case NestingMode::Set: {
      // Set elements have no address: an element is paired with an earlier one that is the
      // same up to zero spellings, found through that common form in O(log n).
      std::map<Value, const Value*, CanonicalLess> earlier_by_form;
      for (const Value& e : earlier.elements()) earlier_by_form.emplace(zero_as_null(e), &e);
      Value::List elements;
      elements.reserve(later.elements().size());
      for (const Value& e : later.elements()) {
        auto it = earlier_by_form.find(zero_as_null(e));
        elements.push_back(it == earlier_by_form.end() ? e
                                                       : keep_zero_spelling(block, *it->second, e));
      }
      return Value::set(later.type().element(), std::move(elements));
    }
  }
  return later;
}

}  // namespace

bool is_zero_value(const Value& v) {
  if (!v.is_known()) return false;
  switch (v.type().kind()) {
    case TypeKind::String:
      return v.as_string().empty();
    case TypeKind::Number:
      return v.as_number() == Number::from_int(0);
    case TypeKind::Bool:
      return !v.as_bool();
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Map:
      return v.length() == 0;
    default:
      return false;
  }
}

Value zero_as_null(const Value& v) {
  if (!v.is_known()) return v;
  if (is_zero_value(v)) return Value::null(v.type());
  const Type& type = v.type();
  switch (type.kind()) {
    case TypeKind::Object: {
      Value::Object attributes;
      for (const auto& [name, attribute] : v.attributes()) {
        attributes.emplace(name, zero_as_null(attribute));
      }
      return Value::object(type, std::move(attributes));
    }
    case TypeKind::List:
    case TypeKind::Set: {
      if (!holds_objects(type)) return v;
      Value::List elements;
      elements.reserve(v.elements().size());
      for (const Value& e : v.elements()) elements.push_back(zero_as_null(e));
      return type.kind() == TypeKind::List ? Value::list(type.element(), std::move(elements))
                                           : Value::set(type.element(), std::move(elements));
    }
    case TypeKind::Map: {
      if (!holds_objects(type)) return v;
      Value::Object elements;
      for (const auto& [key, e] : v.attributes()) elements.emplace(key, zero_as_null(e));
      return Value::map(type.element(), std::move(elements));
    }
    default:
      return v;
  }
}

bool same_but_for_zero(const Value& a, const Value& b) {
  return a == b || zero_as_null(a) == zero_as_null(b);
}

Value keep_zero_spelling(const Block& block, const Value& earlier, const Value& later) {
  if (!usable(earlier) || !usable(later) || earlier == later) return later;
  Value out = later;
  for (const Attribute& attr : block.attributes) {
    if (attr.computed || attr.write_only || attr.nested) continue;
    const Value before = earlier.get_attribute(attr.name);
    const Value after = later.get_attribute(attr.name);
    if (before != after && same_but_for_zero(before, after)) {
      out = out.with_attribute(attr.name, before);
    }
  }
  for (const NestedBlock* nested : block.nested_objects()) {
    const Type type = nested->implied_type();
    const std::string& name = nested->type_name;
    const Value before = attribute_of(earlier, name, type);
    const Value after = attribute_of(later, name, type);
    // A nested attribute left unset is null, where a script reads back an empty collection.
    const Attribute* as_attribute = block.find_attribute(name);
    if (as_attribute && !as_attribute->computed && (before.is_null() != after.is_null()) &&
        same_but_for_zero(before, after)) {
      out = out.with_attribute(name, before);
      continue;
    }
    out = out.with_attribute(name, keep_in_nested(*nested, before, after));
  }
  return out;
}

}  // namespace luaform::engine
