#include "host/engine/rules/plan_rules.h"

#include <algorithm>
#include <set>

#include "host/engine/rules/zero_values.h"
#include "host/engine/schema/nested_elements.h"
#include "host/engine/schema/schema_rules.h"

namespace luaform::engine {
namespace {

bool is_argument(const Attribute& attr) {
  return attr.required || attr.optional;
}

bool forces_new(const Attribute& attr, bool has_update) {
  return attr.force_new || (!has_update && is_argument(attr));
}

// True when some attribute at any depth of `block` forces replacement when it changes.
bool has_force_new(const Block& block) {
  const auto objects = block.nested_objects();
  return std::any_of(block.attributes.begin(), block.attributes.end(),
                     [](const Attribute& a) { return a.force_new; }) ||
         std::any_of(objects.begin(), objects.end(), [](const NestedBlock* nb) {
           return nb->force_new || has_force_new(nb->block);
         });
}

// True when some attribute at any depth of `block` has requires_replace_if.
bool has_replace_check(const Block& block) {
  const auto objects = block.nested_objects();
  return std::any_of(block.attributes.begin(), block.attributes.end(),
                     [](const Attribute& a) { return a.has_requires_replace_if; }) ||
         std::any_of(objects.begin(), objects.end(),
                     [](const NestedBlock* nb) { return has_replace_check(nb->block); });
}

// Set elements have no address, so a set block's replacing change is found by comparing the
// elements' force_new parts, and reported at the block.
Value force_new_part(const Block& block, const Value& object) {
  if (!object.is_known() || object.is_null()) return object;
  Value out = object;
  for (const auto& attr : block.attributes) {
    if (!attr.force_new && !attr.nested) {
      out = out.with_attribute(attr.name, Value::null(attr.type));
    }
  }
  for (const NestedBlock* nested : block.nested_objects()) {
    if (nested->force_new) continue;
    if (!has_force_new(nested->block)) {
      out = out.with_attribute(nested->type_name, Value::null(nested->implied_type()));
      continue;
    }
    out = out.with_attribute(
        nested->type_name,
        map_nested_elements(*nested, out.get_attribute(nested->type_name), Value(), Value(),
                            [&](const Value& e, const Value&, const Value&) {
                              return force_new_part(nested->block, e);
                            }));
  }
  return out;
}

bool set_force_new_changed(const NestedBlock& nested, const Value& before, const Value& after) {
  if (!before.is_known() || !after.is_known() || before.is_null() || after.is_null()) {
    return true;
  }
  Value::List a;
  Value::List b;
  for (const auto& e : before.elements()) a.push_back(force_new_part(nested.block, e));
  for (const auto& e : after.elements()) b.push_back(force_new_part(nested.block, e));
  const Type element = before.type().element();
  return Value::set(element, std::move(a)) != Value::set(element, std::move(b));
}

void find_nested_replacements(const NestedBlock& nested, const Value& before, const Value& after,
                              bool has_update, const AttributePath& path,
                              std::vector<AttributePath>& out, const ReplaceCheck& ask) {
  if (same_but_for_zero(before, after)) return;
  if (nested.operational) return;
  if (nested.force_new || !has_update) {
    out.push_back(path);
    return;
  }
  const bool force_new_inside = has_force_new(nested.block);
  if (!force_new_inside && !(ask && has_replace_check(nested.block))) return;
  const Value none = Value::null(nested.block.implied_type());
  if (!before.is_known() || !after.is_known()) {
    // Nothing to compare element by element: a force_new inside may change, a
    // requires_replace_if cannot be asked yet.
    if (force_new_inside) out.push_back(path);
    return;
  }
  switch (nested.nesting) {
    case NestingMode::Single:
    case NestingMode::Group:
      find_replacements(nested.block, before, after, has_update, path, out, ask);
      return;
    case NestingMode::List: {
      const size_t before_n = before.is_null() ? 0 : before.elements().size();
      const size_t after_n = after.is_null() ? 0 : after.elements().size();
      for (size_t i = 0; i < std::max(before_n, after_n); ++i) {
        find_replacements(nested.block, i < before_n ? before.elements()[i] : none,
                          i < after_n ? after.elements()[i] : none, has_update,
                          child_path(path, ElementIndex{static_cast<int64_t>(i)}), out, ask);
      }
      return;
    }
    case NestingMode::Map: {
      std::set<std::string> keys;
      if (!before.is_null()) {
        for (const auto& [key, _] : before.attributes()) keys.insert(key);
      }
      if (!after.is_null()) {
        for (const auto& [key, _] : after.attributes()) keys.insert(key);
      }
      for (const auto& key : keys) {
        find_replacements(nested.block, before.is_null() ? none : before.get_attribute(key),
                          after.is_null() ? none : after.get_attribute(key), has_update,
                          child_path(path, ElementKey{key}), out, ask);
      }
      return;
    }
    case NestingMode::Set:
      if (set_force_new_changed(nested, before, after)) out.push_back(path);
      return;
  }
}

// True when the configuration writes none of a block (Terraform 1.16 sends such a computed
// block as null; an empty collection says the same).
bool none_configured(const NestedBlock& nested, const Value& config) {
  if (config.is_unknown()) return false;  // a dynamic block over an unknown for_each
  if (config.is_null()) return true;
  switch (nested.nesting) {
    case NestingMode::Single:
    case NestingMode::Group:
      return false;
    case NestingMode::Map:
      return config.attributes().empty();
    case NestingMode::List:
    case NestingMode::Set:
      return config.elements().empty();
  }
  return false;
}

// True when `block` has a computed block at any depth: the plan of a resource without one (most
// of them) walks none of its values for these rules.
bool has_computed_block(const Block& block) {
  return std::any_of(block.blocks.begin(), block.blocks.end(), [](const NestedBlock& nested) {
    return nested.computed || has_computed_block(nested.block);
  });
}

}  // namespace

Value plan_computed_blocks(const Block& block, const Value& planned, const Value& prior,
                           const Value& config) {
  if (!planned.is_known() || planned.is_null() || !has_computed_block(block)) return planned;
  Value out = planned;
  for (const NestedBlock& nested : block.blocks) {
    const Type type = nested.implied_type();
    const Value prior_blocks = attribute_of(prior, nested.type_name, type);
    const Value config_blocks = attribute_of(config, nested.type_name, type);
    if (nested.computed && none_configured(nested, config_blocks)) {
      const bool stored = prior_blocks.is_known() && !prior_blocks.is_null();
      out = out.with_attribute(nested.type_name, stored ? prior_blocks : Value::unknown(type));
      continue;
    }
    out = out.with_attribute(
        nested.type_name,
        map_nested_elements(nested, out.get_attribute(nested.type_name), prior_blocks,
                            config_blocks, [&](const Value& e, const Value& p, const Value& c) {
                              return plan_computed_blocks(nested.block, e, p, c);
                            }));
  }
  return out;
}

std::optional<AttributePath> unconfigured_computed_block(const Block& block, const Value& config,
                                                         const AttributePath& path) {
  if (!config.is_known() || config.is_null() || !has_computed_block(block)) return std::nullopt;
  for (const NestedBlock& nested : block.blocks) {
    const Value blocks = attribute_of(config, nested.type_name, nested.implied_type());
    AttributePath at = child_path(path, AttributeName{nested.type_name});
    if (nested.computed && none_configured(nested, blocks)) return at;
    if (!blocks.is_known() || blocks.is_null()) continue;
    if (nested.nesting == NestingMode::Single || nested.nesting == NestingMode::Group) {
      if (auto found = unconfigured_computed_block(nested.block, blocks, at)) return found;
      continue;
    }
    if (nested.nesting == NestingMode::Map) {
      for (const auto& [key, element] : blocks.attributes()) {
        if (auto found = unconfigured_computed_block(nested.block, element,
                                                     child_path(at, ElementKey{key}))) {
          return found;
        }
      }
      continue;
    }
    int64_t index = 0;
    for (const Value& element : blocks.elements()) {
      // A set's elements have no address: the block is as near as a path gets.
      const AttributePath element_path =
          nested.nesting == NestingMode::List ? child_path(at, ElementIndex{index}) : at;
      if (auto found = unconfigured_computed_block(nested.block, element, element_path)) {
        return found;
      }
      ++index;
    }
  }
  return std::nullopt;
}

bool changes_object(const Block& block, const Value& prior, const Value& planned) {
  if (prior == planned) return false;
  // Write-only values are never stored, so the prior state cannot tell whether they changed.
  const Value stored = without_write_only(block, planned);
  return keep_zero_spelling(block, prior, stored) != prior;
}

Value mark_computed_unknown(const Block& block, const Value& planned, const Value& prior,
                            const Value& config) {
  if (!planned.is_known() || planned.is_null()) return planned;
  Value out = planned;
  for (const NestedBlock* nested : block.nested_objects()) {
    const std::string& name = nested->type_name;
    const Type type = nested->implied_type();
    out = out.with_attribute(
        name, map_nested_elements(*nested, out.get_attribute(name), attribute_of(prior, name, type),
                                  attribute_of(config, name, type),
                                  [&](const Value& e, const Value& p, const Value& c) {
                                    return mark_computed_unknown(nested->block, e, p, c);
                                  }));
  }
  const bool is_new = !prior.is_known() || prior.is_null();
  if (!is_new && !changes_object(block, prior, out)) return out;
  for (const auto& attr : block.attributes) {
    if (!attr.computed || attr.default_value) continue;
    if (!attribute_of(config, attr.name, attr.type).is_null()) continue;
    // An existing object keeps the stored value (the CLI proposed it; the id among them)
    // unless the provider recomputes it on every update; a new object has none to keep.
    if (!is_new && !attr.changes_on_update) continue;
    out = out.with_attribute(attr.name, Value::unknown(attr.type, attr.refine));
  }
  return out;
}

void find_replacements(const Block& block, const Value& prior, const Value& planned,
                       bool has_update, const AttributePath& path,
                       std::vector<AttributePath>& replacements, const ReplaceCheck& ask) {
  for (const auto& attr : block.attributes) {
    if (attr.nested) continue;  // element by element, below
    // A write-only value is never stored: it has nothing to be compared with.
    if (attr.write_only) continue;
    const Value before = attribute_of(prior, attr.name, attr.type);
    const Value after = attribute_of(planned, attr.name, attr.type);
    if (before == after || (!attr.computed && same_but_for_zero(before, after))) continue;
    AttributePath at = child_path(path, AttributeName{attr.name});
    if (forces_new(attr, has_update) ||
        (attr.has_requires_replace_if && ask && ask(at, before, after))) {
      replacements.push_back(std::move(at));
    }
  }
  for (const NestedBlock* nested : block.nested_objects()) {
    const Type type = nested->implied_type();
    find_nested_replacements(*nested, attribute_of(prior, nested->type_name, type),
                             attribute_of(planned, nested->type_name, type), has_update,
                             child_path(path, AttributeName{nested->type_name}), replacements, ask);
  }
}

}  // namespace luaform::engine
