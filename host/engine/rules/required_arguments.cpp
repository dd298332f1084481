#include "host/engine/rules/required_arguments.h"

namespace luaform::engine {
namespace {

void check_block(const Block& block, const Value& object, const AttributePath& path,
                 Diagnostics& diags);

// Every element of a nested block or nested attribute value that is there.
void check_elements(const NestedBlock& nested, const Value& v, const AttributePath& path,
                    Diagnostics& diags) {
  if (!v.is_known() || v.is_null()) return;
  switch (nested.nesting) {
    case NestingMode::Single:
    case NestingMode::Group:
      check_block(nested.block, v, path, diags);
      return;
    case NestingMode::Map:
      for (const auto& [key, element] : v.attributes()) {
        check_block(nested.block, element, child_path(path, ElementKey{key}), diags);
      }
      return;
    case NestingMode::List:
    case NestingMode::Set: {
      // A set element has no index of its own; its place in the set still tells which it is.
      int64_t i = 0;
      for (const auto& element : v.elements()) {
        check_block(nested.block, element, child_path(path, ElementIndex{i++}), diags);
      }
      return;
    }
  }
}

void check_block(const Block& block, const Value& object, const AttributePath& path,
                 Diagnostics& diags) {
  if (!object.is_known() || object.is_null()) return;
  for (const auto& attr : block.attributes) {
    const Value v = object.get_attribute(attr.name);
    const AttributePath at = child_path(path, AttributeName{attr.name});
    if (attr.required && v.is_null()) {
      diags.error("Missing required argument",
                  "The argument \"" + attr.name + "\" is required, but no definition was found.",
                  at);
    }
    if (attr.nested) check_elements(*attr.nested, v, at, diags);
  }
  for (const auto& nested : block.blocks) {
    check_elements(nested, object.get_attribute(nested.type_name),
                   child_path(path, AttributeName{nested.type_name}), diags);
  }
}

}  // namespace

Diagnostics check_required_arguments(const Block& block, const Value& config) {
  Diagnostics diags;
  check_block(block, config, {}, diags);
  return diags;
}

}  // namespace luaform::engine
