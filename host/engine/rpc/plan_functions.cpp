#include "host/engine/rpc/plan_functions.h"

#include <algorithm>
#include <map>

#include "host/engine/schema/nested_elements.h"

namespace luaform::engine {
namespace {

bool has_plan_function_inside(const Block& block) {
  const auto objects = block.nested_objects();
  return std::any_of(block.attributes.begin(), block.attributes.end(),
                     [](const Attribute& a) { return a.has_plan_function; }) ||
         std::any_of(objects.begin(), objects.end(),
                     [](const NestedBlock* nb) { return has_plan_function_inside(nb->block); });
}

// One level: the attributes of `block` in the object `planned` at `path`, then the blocks
// inside it. `resource` is the whole planned object, or null at the top (where it is `planned`).
class Planner {
 public:
  Planner(Session& session, const std::string& type_name, Diagnostics& diags)
      : session_(session), type_name_(type_name), diags_(diags) {}

  Value object(const Block& block, const AttributePath& path, const Value& prior,
               const Value& config, const Value& planned, const Value& resource) {
    if (!planned.is_known() || planned.is_null()) return planned;
    Value out = planned;
    for (const auto& attr : block.attributes) {
      if (attr.has_plan_function) out = attribute(attr, path, prior, config, out, resource);
    }
    const Value& whole = path.empty() ? out : resource;
    for (const NestedBlock* nested : block.nested_objects()) {
      if (nested->nesting == NestingMode::Set || !has_plan_function_inside(nested->block)) {
        continue;
      }
      const std::string& name = nested->type_name;
      const Type type = nested->implied_type();
      out = out.with_attribute(
          name,
          elements(*nested, child_path(path, AttributeName{name}), attribute_of(prior, name, type),
                   attribute_of(config, name, type), out.get_attribute(name), whole));
    }
    return out;
  }

 private:
  Value attribute(const Attribute& attr, const AttributePath& path, const Value& prior,
                  const Value& config, const Value& planned, const Value& resource) {
    PlanContext at{child_path(path, AttributeName{attr.name}), prior, config, planned,
                   path.empty() ? planned : resource};
    std::optional<Value> value;
    value = session_.plan_attribute(type_name_, attr, at, diags_);
    if (!value || diags_.has_errors()) return planned;
    const Value current = planned.get_attribute(attr.name);
    if (!attribute_of(config, attr.name, attr.type).is_null() && *value != current) {
      diags_.error(
          type_name_ + ": plan of \"" + path_to_string(at.path) + "\" changed a configured value",
          "The configuration sets it, so the plan must keep " + current.to_display_string() + ".",
          at.path);
      return planned;
    }
    return planned.with_attribute(attr.name, std::move(*value));
  }

  // The elements of a nested block or attribute (single, list or map), each planned as an
  // object paired with the prior and configured element at the same index or key.
  Value elements(const NestedBlock& nested, const AttributePath& path, const Value& prior,
                 const Value& config, const Value& planned, const Value& resource) {
    if (!planned.is_known() || planned.is_null()) return planned;
    const Block& block = nested.block;
    const auto element_of = [](const Value& collection, size_t i) {
      return collection.is_known() && !collection.is_null() && i < collection.elements().size()
                 ? collection.elements()[i]
                 : Value();
    };
    const auto value_of = [](const Value& collection, const std::string& key) {
      if (!collection.is_known() || collection.is_null()) return Value();
      const auto& members = collection.attributes();
      auto it = members.find(key);
      return it == members.end() ? Value() : it->second;
    };
    switch (nested.nesting) {
      case NestingMode::List: {
        Value::List out;
        for (size_t i = 0; i < planned.elements().size(); ++i) {
          out.push_back(object(block, child_path(path, ElementIndex{static_cast<int64_t>(i)}),
                               element_of(prior, i), element_of(config, i), planned.elements()[i],
                               resource));
        }
        return Value::list(planned.type().element(), std::move(out));
      }
      case NestingMode::Map: {
        Value::Object out;
        for (const auto& [key, element] : planned.attributes()) {
          out.emplace(key, object(block, child_path(path, ElementKey{key}), value_of(prior, key),
                                  value_of(config, key), element, resource));
        }
        return Value::map(planned.type().element(), std::move(out));
      }
      case NestingMode::Single:
      case NestingMode::Group:
        return object(block, path, prior, config, planned, resource);
      case NestingMode::Set:
        break;
    }
    return planned;
  }

  Session& session_;
  const std::string& type_name_;
  Diagnostics& diags_;
};

}  // namespace

Value plan_with_functions(Session& session, const std::string& type_name, const Block& block,
                          const Value& prior, const Value& config, const Value& planned,
                          Diagnostics& diags) {
  Diagnostics own;
  Planner planner(session, type_name, own);
  const Value out = planner.object(block, {}, prior, config, planned, Value());
  diags.append(own);
  return own.has_errors() ? planned : out;
}

}  // namespace luaform::engine
