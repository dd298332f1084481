#include "host/engine/rules/equivalence.h"

#include <algorithm>
#include <map>

#include "host/engine/schema/nested_elements.h"

namespace luaform::engine {
namespace {

bool present(const Value& v) {
  return v.is_wholly_known() && !v.is_null();
}

bool usable(const Value& v) {
  return v.is_known() && !v.is_null();
}

struct Less {
  bool operator()(const Value& a, const Value& b) const { return Value::compare(a, b) < 0; }
};

// The element a pair of elements becomes: the earlier, or a mix of both for objects.
using Paired = std::function<Value(const Value& earlier, const Value& later)>;

// `later` (a known set) with each of its elements that pairs with an element of the set
// `earlier` made paired(earlier element, later element). An element in both sets as it is pairs
// with itself and is not asked about; the others pair by equal normal forms, each earlier
// element once, in order. A later element with unknown parts has no normal form yet, and stays;
// an earlier one (a planned element whose computed parts apply fills in) is asked with them.
Value pair_elements(const Value& earlier, const Value& later, const AttributePath& path,
                    const NormalForms& normal_forms, const Paired& paired) {
  if (!normal_forms || !usable(earlier) || !usable(later)) return later;
  const Value::List& before = earlier.elements();
  const Value::List& after = later.elements();
  std::vector<bool> taken(before.size(), false);
  std::vector<size_t> open_after;
  for (size_t i = 0; i < after.size(); ++i) {
    // Sets are kept sorted by Value::compare.
    auto it = std::lower_bound(before.begin(), before.end(), after[i], Less{});
    if (it != before.end() && *it == after[i]) {
      taken[static_cast<size_t>(it - before.begin())] = true;
    } else if (after[i].is_wholly_known()) {
      open_after.push_back(i);
    }
  }
  std::vector<size_t> open_before;
  Value::List asked;
  for (size_t j = 0; j < before.size(); ++j) {
    if (taken[j] || !before[j].is_known()) continue;
    open_before.push_back(j);
    asked.push_back(before[j]);
  }
  if (open_before.empty() || open_after.empty()) return later;
  for (size_t i : open_after) asked.push_back(after[i]);
  // One question for both sides: for a script, one call.
  const std::optional<Value::List> forms = normal_forms(path, asked);
  if (!forms || forms->size() != asked.size()) return later;
  std::multimap<Value, size_t, Less> by_form;
  for (size_t k = 0; k < open_before.size(); ++k) by_form.emplace((*forms)[k], open_before[k]);
  Value::List out = after;
  bool changed = false;
  for (size_t m = 0; m < open_after.size(); ++m) {
    const Value& form = (*forms)[open_before.size() + m];
    auto it = by_form.lower_bound(form);
    if (it == by_form.end() || !(it->first == form)) continue;
    const size_t i = open_after[m];
    out[i] = paired(before[it->second], after[i]);
    by_form.erase(it);
    changed = true;
  }
  if (!changed) return later;
  Value kept = Value::set(later.type().element(), std::move(out));
  // Two elements made one would change the set's size: not the same set after all.
  return kept.elements().size() == after.size() ? kept : later;
}

// An element of a set of `block`'s objects that pairs: what the configuration decides keeps the
// earlier spelling; a computed-only value is the later one's where it gives one (what apply or
// read found), and whatever the earlier does not know yet (a planned unknown) is the later's.
Value paired_object(const Block& block, const Value& earlier, const Value& later) {
  if (!usable(earlier) || !usable(later)) return later;
  Value out = earlier;
  for (const auto& attr : block.attributes) {
    const Value before = attribute_of(earlier, attr.name, attr.type);
    const Value after = attribute_of(later, attr.name, attr.type);
    const bool computed_only = attr.computed && !attr.optional && !attr.required;
    if (!before.is_wholly_known() || (computed_only && !after.is_null())) {
      out = out.with_attribute(attr.name, after);
    }
  }
  for (const auto& nested : block.blocks) {
    const Value before = attribute_of(earlier, nested.type_name, nested.implied_type());
    if (!before.is_wholly_known()) {
      out = out.with_attribute(nested.type_name, later.get_attribute(nested.type_name));
    }
  }
  return out;
}

Value keep_in_nested(const NestedBlock& nested, const Value& earlier, const Value& later,
                     const Equivalence& equivalence, const AttributePath& path) {
  if (!usable(earlier) || !usable(later)) return later;
  switch (nested.nesting) {
    case NestingMode::Single:
    case NestingMode::Group:
      return keep_equivalent(nested.block, earlier, later, equivalence, path);
    case NestingMode::List: {
      Value::List elements = later.elements();
      const size_t n = std::min(elements.size(), earlier.elements().size());
      for (size_t i = 0; i < n; ++i) {
        elements[i] = keep_equivalent(nested.block, earlier.elements()[i], elements[i], equivalence,
                                      child_path(path, ElementIndex{static_cast<int64_t>(i)}));
      }
      return Value::list(later.type().element(), std::move(elements));
    }
    case NestingMode::Map: {
      Value::Object elements = later.attributes();
      for (auto& [key, element] : elements) {
        auto it = earlier.attributes().find(key);
        if (it == earlier.attributes().end()) continue;
        element = keep_equivalent(nested.block, it->second, element, equivalence,
                                  child_path(path, ElementKey{key}));
      }
      return Value::map(later.type().element(), std::move(elements));
    }
    case NestingMode::Set:
      if (!nested.has_element_normaliser) return later;
      return pair_elements(
          earlier, later, path, equivalence.normal_forms,
          [&](const Value& e, const Value& l) { return paired_object(nested.block, e, l); });
  }
  return later;
}

// A set attribute with an element normaliser: its elements pair by normal form.
Value keep_set_attribute(const Value& earlier, const Value& later, const Equivalence& equivalence,
                         const AttributePath& path) {
  Value kept =
      pair_elements(earlier, later, path, equivalence.normal_forms,
                    [](const Value& e, const Value& l) { return e.is_wholly_known() ? e : l; });
  if (equivalence.keeping == Keeping::WholeAttributes && kept != earlier) return later;
  return kept;
}

}  // namespace

bool has_equivalence(const Block& block) {
  const auto objects = block.nested_objects();
  return std::any_of(
             block.attributes.begin(), block.attributes.end(),
             [](const Attribute& a) { return a.has_equivalence || a.has_element_normaliser; }) ||
         std::any_of(objects.begin(), objects.end(), [](const NestedBlock* nb) {
           return nb->has_element_normaliser || has_equivalence(nb->block);
         });
}

Value keep_equivalent(const Block& block, const Value& earlier, const Value& later,
                      const Equivalence& equivalence, const AttributePath& path) {
  if (!usable(earlier) || !usable(later)) return later;
  Value out = later;
  for (const auto& attr : block.attributes) {
    if (!attr.has_equivalence && !attr.has_element_normaliser) continue;
    const Value before = attribute_of(earlier, attr.name, attr.type);
    Value after = attribute_of(later, attr.name, attr.type);
    const AttributePath at = child_path(path, AttributeName{attr.name});
    if (attr.has_element_normaliser && !attr.nested) {
      Value kept = keep_set_attribute(before, after, equivalence, at);
      if (kept != after) {
        after = std::move(kept);
        out = out.with_attribute(attr.name, after);
      }
    }
    if (!attr.has_equivalence || !present(before) || !present(after) || before == after) continue;
    if (equivalence.same(at, before, after)) out = out.with_attribute(attr.name, before);
  }
  for (const NestedBlock* nested : block.nested_objects()) {
    if (!nested->has_element_normaliser && !has_equivalence(nested->block)) continue;
    const Type type = nested->implied_type();
    out = out.with_attribute(nested->type_name,
                             keep_in_nested(*nested, attribute_of(earlier, nested->type_name, type),
                                            attribute_of(out, nested->type_name, type), equivalence,
                                            child_path(path, AttributeName{nested->type_name})));
  }
  return out;
}

}  // namespace luaform::engine
