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

// An element of `type` whose every attribute is null: what an element the stored object lacks
// is paired with (see keep_in_nested).
Value nulls_of(const Type& type) {
  return Value::object(type, {});
}

// An element read back that the stored object did not have (a block an imported object did not
// hold yet, a list grown by a refresh) is paired with an element of nulls: its arguments read
// back as zero values are the unset ones, as at the top of an imported object.
Value keep_in_nested(const NestedBlock& nested, const Value& earlier, const Value& later) {
  if (!usable(later) || earlier == later) return later;
  if (earlier.is_unknown()) return later;
  const Block& block = nested.block;
  const Type element = nested.block.implied_type();
  switch (nested.nesting) {
    case NestingMode::Single:
    case NestingMode::Group:
      return keep_zero_spelling(block, earlier.is_null() ? nulls_of(element) : earlier, later);
    case NestingMode::List: {
      Value::List elements = later.elements();
      const size_t paired = earlier.is_null() ? 0 : earlier.elements().size();
      for (size_t i = 0; i < elements.size(); ++i) {
        elements[i] = keep_zero_spelling(
            block, i < paired ? earlier.elements()[i] : nulls_of(element), elements[i]);
      }
      return Value::list(later.type().element(), std::move(elements));
    }
    case NestingMode::Map: {
      Value::Object elements = later.attributes();
      for (auto& [key, value] : elements) {
        const bool stored = !earlier.is_null() && earlier.attributes().count(key) != 0;
        value = keep_zero_spelling(block, stored ? earlier.attributes().at(key) : nulls_of(element),
                                   value);
      }
      return Value::map(later.type().element(), std::move(elements));
    }
    case NestingMode::Set: {
      // Set elements have no address: an element is paired with an earlier one that is the
      // same up to zero spellings, found through that common form in O(log n). One without a
      // pair keeps its spelling: making its zero values null would make it another element.
      if (earlier.is_null()) return later;
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
