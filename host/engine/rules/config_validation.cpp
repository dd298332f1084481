#include "host/engine/rules/config_validation.h"

#include <algorithm>
#include <set>
#include <variant>

#include "host/engine/value/duration.h"
#include "host/engine/value/value_walk.h"

namespace luaform::engine {
namespace {

// Set, as helper/schema sees configuration: not null, and not an empty collection (the CLI
// sends blocks the configuration leaves out as empty lists). An unknown value counts as set.
bool is_set(const Value& v) {
  if (v.is_null()) return false;
  return !(v.is_known() && v.type().is_collection() && v.length() == 0);
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) out += ", ";
    out += "\"" + name + "\"";
  }
  return out;
}

class Validator {
 public:
  Validator(const Value& root, const ValueValidator& validate_value)
      : root_(root), validate_value_(validate_value) {}

  void block(const Block& block, const Value& object, const AttributePath& path) {
    if (!object.is_known() || object.is_null()) return;
    for (const auto& attr : block.attributes) {
      attribute(attr, object.get_attribute(attr.name), child_path(path, AttributeName{attr.name}));
    }
    for (const NestedBlock* nested : block.nested_objects()) {
      nested_block(*nested, object.get_attribute(nested->type_name),
                   child_path(path, AttributeName{nested->type_name}));
    }
  }

  Diagnostics take() { return std::move(diags_); }

 private:
  void attribute(const Attribute& attr, const Value& v, const AttributePath& path) {
    const std::string name = path_to_string(path);
    if (is_set(v)) {
      if (!attr.removed.empty()) {
        diags_.error("Argument \"" + name + "\" has been removed", attr.removed, path);
      }
      if (!attr.deprecated.empty()) diags_.warning("Argument is deprecated", attr.deprecated, path);
      const std::string subject = "\"" + name + "\": ";
      // Like helper/schema, a conflict is judged only between known values.
      for (const auto& other : attr.conflicts_with) {
        const Value o = value_at_address(root_, other);
        if (v.is_wholly_known() && o.is_wholly_known() && is_set(o)) {
          diags_.error("Conflicting configuration arguments", subject + "conflicts with " += other,
                       path);
        }
      }
      const bool missing = std::any_of(
          attr.required_with.begin(), attr.required_with.end(),
          [&](const std::string& other) { return value_at_address(root_, other).is_null(); });
      if (missing) {
        diags_.error("Missing required argument",
                     subject + "all of " + quoted_list(attr.required_with) + " must be specified",
                     path);
      }
    }
    if (!attr.default_problem.empty() && v.is_null()) {
      diags_.error(
          "Invalid default for \"" + name + "\"",
          "The argument is not set, and its default cannot be used: " + attr.default_problem + ".",
          path);
    }
    one_of_group(with_self(attr.exactly_one_of, path), true, path);
    one_of_group(with_self(attr.at_least_one_of, path), false, path);
    if (attr.duration && v.is_known() && !v.is_null() && !parse_duration(v.as_string())) {
      diags_.error("Invalid duration \"" + v.as_string() + "\"",
                   "\"" + name + "\" takes a duration such as \"30s\", \"10m\" or \"1h30m\".",
                   path);
    }
    if (attr.has_validate && v.is_wholly_known() && !v.is_null()) {
      // A validator's message is about this attribute unless it names a path of its own.
      const Diagnostics found = validate_value_(path, v);
      for (Diagnostic d : found.items()) {
        if (d.path.empty()) d.path = path;
        diags_.add(std::move(d));
      }
    }
  }

  // A group always includes the attribute that declares it (helper/schema adds it too).
  static std::vector<std::string> with_self(std::vector<std::string> group,
                                            const AttributePath& path) {
    if (group.empty()) return group;
    const std::string self = path_to_address(path);
    if (std::find(group.begin(), group.end(), self) == group.end()) group.push_back(self);
    return group;
  }

  // Reported once per group, however many of its attributes declare it.
  void one_of_group(const std::vector<std::string>& group, bool exactly,
                    const AttributePath& path) {
    if (group.empty()) return;
    std::vector<std::string> key = group;
    std::sort(key.begin(), key.end());
    if (!reported_groups_.insert((exactly ? "1:" : "+:") + quoted_list(key)).second) return;
    size_t set = 0;
    size_t unknown = 0;
    for (const auto& address : group) {
      const Value v = value_at_address(root_, address);
      if (!v.is_wholly_known()) {
        ++unknown;
      } else if (is_set(v)) {
        ++set;
      }
    }
    if (exactly && set > 1) {
      diags_.error("Invalid combination of arguments",
                   "only one of " + quoted_list(group) + " can be specified, but " +
                       std::to_string(set) + " were",
                   path);
    } else if (set == 0 && unknown == 0) {
      diags_.error("Invalid combination of arguments",
                   std::string(exactly ? "exactly" : "at least") + " one of " + quoted_list(group) +
                       " must be specified",
                   path);
    }
  }

  void nested_block(const NestedBlock& nested, const Value& v, const AttributePath& path) {
    if (!v.is_known()) return;
    const std::string name = path_to_string(path);
    if (!nested.block.deprecated.empty() && !v.is_null() &&
        !(v.type().is_collection() && v.length() == 0)) {
      diags_.warning("Block is deprecated", nested.block.deprecated, path);
    }
    switch (nested.nesting) {
      case NestingMode::Single:
      case NestingMode::Group:
        if (v.is_null() && nested.min_items > 0) {
          diags_.error("Missing required block", "a \"" + name + "\" block is required", path);
        }
        block(nested.block, v, path);
        return;
      case NestingMode::List:
      case NestingMode::Set:
      case NestingMode::Map:
        break;
    }
    // Set elements that hold unknowns may still turn out equal and merge: count them later.
    if (nested.nesting == NestingMode::Set && !v.is_wholly_known()) {
      block_elements(nested, v, path);
      return;
    }
    const auto count = static_cast<int64_t>(v.is_null() ? 0 : v.length());
    if (count < nested.min_items) {
      diags_.error("Not enough \"" + nested.type_name + "\" blocks",
                   "at least " + std::to_string(nested.min_items) + " \"" + nested.type_name +
                       "\" blocks are required, " + std::to_string(count) + " given",
                   path);
    }
    if (nested.max_items > 0 && count > nested.max_items) {
      diags_.error("Too many \"" + nested.type_name + "\" blocks",
                   "at most " + std::to_string(nested.max_items) + " \"" + nested.type_name +
                       "\" blocks are allowed, " + std::to_string(count) + " given",
                   path);
    }
    block_elements(nested, v, path);
  }

  void block_elements(const NestedBlock& nested, const Value& v, const AttributePath& path) {
    if (v.is_null()) return;
    if (nested.nesting == NestingMode::Map) {
      for (const auto& [key, element] : v.attributes()) {
        block(nested.block, element, child_path(path, ElementKey{key}));
      }
      return;
    }
    // Set elements have no index of their own; the position in the sorted set still tells
    // the user which element a message is about.
    int64_t i = 0;
    for (const auto& element : v.elements()) {
      block(nested.block, element, child_path(path, ElementIndex{i++}));
    }
  }

  const Value& root_;
  const ValueValidator& validate_value_;
  Diagnostics diags_;
  std::set<std::string> reported_groups_;
};

}  // namespace

Value value_at_address(const Value& root, const std::string& address) {
  return value_at_parts(root, split_address(address), 0);
}

Diagnostics validate_config(const Block& block, const Value& config,
                            const ValueValidator& validate_value) {
  Validator validator(config, validate_value);
  validator.block(block, config, {});
  return validator.take();
}

}  // namespace luaform::engine
