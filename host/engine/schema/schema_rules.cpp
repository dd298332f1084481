#include "host/engine/schema/schema_rules.h"

#include <functional>
#include <initializer_list>
#include <set>
#include <string_view>

#include "host/engine/schema/nested_elements.h"
#include "host/engine/schema/spelling.h"
#include "host/engine/value/value_walk.h"

namespace luaform::engine {
namespace {

// Terraform requires everything inside a computed block to say it is computed too: the blocks,
// and the attributes (an optional one stays optional; a required one is a schema error, see
// check_computed_block).
void served_computed(Block& block) {
  for (auto& attr : block.attributes) {
    if (!attr.required) attr.computed = true;
  }
  for (auto& inner : block.blocks) {
    inner.computed = true;
    served_computed(inner.block);
  }
}

void serve_block(Block& block) {
  for (auto& attr : block.attributes) {
    if (attr.default_value && !attr.required) {
      attr.optional = true;
      attr.computed = true;
    }
    if (attr.nested) {
      auto served = std::make_shared<NestedBlock>(*attr.nested);
      serve_block(served->block);
      attr.nested = std::move(served);
    }
  }
  for (auto& nested : block.blocks) {
    serve_block(nested.block);
    if (nested.computed) served_computed(nested.block);
  }
}

void ensure_id(Block& block) {
  if (block.find_attribute("id")) return;
  Attribute id;
  id.name = "id";
  id.type = Type::string();
  id.computed = true;
  id.description = "The identifier of this object.";
  block.attributes.insert(block.attributes.begin(), std::move(id));
}

// The `timeouts` block a user writes to change how long operations may take, with one
// optional duration per operation the script declares a timeout for.
void add_timeouts_block(Schema& schema) {
  if (schema.timeouts.empty() || schema.block.find_block("timeouts")) return;
  NestedBlock timeouts;
  timeouts.type_name = "timeouts";
  timeouts.nesting = NestingMode::Single;
  timeouts.operational = true;
  for (const auto& [operation, _] : schema.timeouts) {
    Attribute a;
    a.name = operation;
    a.type = Type::string();
    a.optional = true;
    a.duration = true;
    a.description = "How long " + operation + " may take, such as \"10m\" or \"1h\".";
    timeouts.block.attributes.push_back(std::move(a));
  }
  schema.block.blocks.push_back(std::move(timeouts));
}

}  // namespace

ProviderSchema schema_as_served(const ProviderSchema& declared) {
  ProviderSchema served = declared;
  // Provider configuration is never planned, so its defaults are applied at configure time
  // and its attributes keep the flags the author gave them.
  for (auto& [name, schema] : served.resources) {
    serve_block(schema.block);
    ensure_id(schema.block);
    add_timeouts_block(schema);
  }
  for (auto& [name, schema] : served.data_sources) {
    serve_block(schema.block);
    ensure_id(schema.block);
    add_timeouts_block(schema);
  }
  // An ephemeral resource has no lifecycle in state, so neither an id nor timeouts.
  for (auto& [name, schema] : served.ephemeral_resources) serve_block(schema.block);
  settle_types(served);
  return served;
}

Value with_defaults(const Block& block, const Value& object, const Value& config) {
  if (!object.is_known() || object.is_null() || !config.is_known() || config.is_null()) {
    return object;
  }
  Value out = object;
  for (const auto& attr : block.attributes) {
    if (attr.default_value && config.get_attribute(attr.name).is_null()) {
      out = out.with_attribute(attr.name, *attr.default_value);
    }
  }
  for (const NestedBlock* nested : block.nested_objects()) {
    out = out.with_attribute(
        nested->type_name,
        map_nested_elements(*nested, out.get_attribute(nested->type_name), Value(),
                            config.get_attribute(nested->type_name),
                            [&](const Value& element, const Value&, const Value& configured) {
                              return with_defaults(nested->block, element, configured);
                            }));
  }
  return out;
}

Value with_empty_blocks(const Block& block, const Value& object) {
  if (!object.is_known() || object.is_null()) return object;
  Value out = object;
  for (const auto& nested : block.blocks) {
    Value v = out.get_attribute(nested.type_name);
    const Type type = nested.implied_type();
    if (v.is_null() && type == v.type()) {
      switch (nested.nesting) {
        case NestingMode::List:
          v = Value::list(type.element(), {});
          break;
        case NestingMode::Set:
          v = Value::set(type.element(), {});
          break;
        case NestingMode::Map:
          v = Value::map(type.element(), {});
          break;
        case NestingMode::Single:
        case NestingMode::Group:
          break;
      }
    }
    v = map_nested_elements(nested, v, Value(), Value(),
                            [&](const Value& element, const Value&, const Value&) {
                              return with_empty_blocks(nested.block, element);
                            });
    out = out.with_attribute(nested.type_name, std::move(v));
  }
  return out;
}

namespace {

// "resource_pool.lua:12: " before a problem of a declaration made there, as a script's own
// errors read; nothing when the logic did not say where.
std::string declared_place(const std::string& declared_at) {
  return declared_at.empty() ? std::string() : declared_at + ": ";
}

// A refinement says something about the attribute's type, of a value the provider computes.
void check_refinement(const Attribute& attr, const std::string& what, const AttributePath& path,
                      Diagnostics& diags) {
  const Refinement& r = attr.refine;
  const TypeKind kind = attr.type.kind();
  const bool collection = kind == TypeKind::List || kind == TypeKind::Set || kind == TypeKind::Map;
  std::string problem;
  if (!attr.computed) {
    problem = "only a computed value can be refined";
  } else if (!r.prefix.empty() && kind != TypeKind::String) {
    problem = "a prefix is for strings";
  } else if (r.prefix.size() > 256) {
    problem = "a prefix can be at most 256 bytes long";
  } else if ((r.min || r.max) && kind != TypeKind::Number) {
    problem = "min and max are for numbers";
  } else if ((r.min_length || r.max_length) && !collection) {
    problem = "min_length and max_length are for lists, sets and maps";
  } else if (r.min && r.max && *r.max < *r.min) {
    problem = "min is more than max";
  } else if ((r.min_length && *r.min_length < 0) ||
             (r.min_length && r.max_length && *r.max_length < *r.min_length)) {
    problem = "the length bounds are negative or cross";
  }
  if (!problem.empty()) diags.error(what + ": refine: " + problem, {}, path);
}

// An element normaliser pairs the elements of a set, as a whole: it needs a set, and one that is
// not itself inside a set (whose elements pair only as the outer set's do).
void check_element_normaliser(bool is_set, BlockPlace place, const std::string& what,
                              const AttributePath& path, Diagnostics& diags) {
  if (!is_set) {
    diags.error(what + " is not a set, so an element normaliser has nothing to pair",
                "Lists pair their elements by index and maps by key; give the value a normal "
                "form as a whole instead.",
                path);
  } else if (place == BlockPlace::ResourceInSet) {
    diags.error(what + " cannot have an element normaliser",
                "It is inside a set of blocks, whose elements pair only as a whole; give the "
                "outer set an element normaliser instead.",
                path);
  }
}

}  // namespace

namespace {

// What Terraform 1.16 allows of a computed block (configschema's internal validation), and
// where the engine plans one.
void check_computed_block(const NestedBlock& nested, BlockPlace place, const std::string& where,
                          Diagnostics& diags) {
  const std::string what = declared_place(nested.declared_at) + where + ": block \"" +
                           nested.type_name + "\" is computed";
  const AttributePath path{AttributeName{nested.type_name}};
  if (place == BlockPlace::Elsewhere) {
    diags.error(what + ", which only the blocks of resources may be",
                "A data source's, a provider's or an ephemeral resource's blocks are read or "
                "written as they are; a resource plans the value of a computed one.",
                path);
  }
  if (nested.min_items > 0) {
    diags.error(what + ", so it cannot be required or have min_items",
                "The provider fills it in when the configuration has none.", path);
  }
  if (nested.force_new) {
    diags.error(what + ", so it cannot force a new resource",
                "Use force_new on the attributes inside it instead.", path);
  }
  const std::function<void(const Block&, const std::string&)> no_required =
      [&](const Block& inner, const std::string& at) {
        for (const auto& attr : inner.attributes) {
          if (attr.required) {
            std::string summary = what;
            summary.append(", so attribute \"").append(at).append(attr.name);
            summary.append("\" in it cannot be required");
            diags.error(std::move(summary),
                        "The provider fills the block in when the configuration has none; "
                        "Terraform requires every attribute in it to be computed. Make it "
                        "optional (it is served optional and computed).",
                        path);
          }
        }
        for (const auto& block : inner.blocks) no_required(block.block, at + block.type_name + ".");
      };
  no_required(nested.block, "");
}

}  // namespace

void validate_block(const Block& block, const std::string& where, Diagnostics& diags,
                    BlockPlace place) {
  const bool resource_top_level = place == BlockPlace::ResourceTop;
  // Where the blocks inside this one are.
  const auto inner = [place](NestingMode nesting) {
    if (place == BlockPlace::Elsewhere) return BlockPlace::Elsewhere;
    if (place == BlockPlace::ResourceInSet || nesting == NestingMode::Set) {
      return BlockPlace::ResourceInSet;
    }
    return BlockPlace::ResourceNested;
  };
  for (const auto& attr : block.attributes) {
    AttributePath path{AttributeName{attr.name}};
    const std::string what =
        declared_place(attr.declared_at) + where + ": attribute \"" + attr.name + "\"";
    if (!attr.required && !attr.optional && !attr.computed) {
      diags.error(what + " must be required, optional or computed", {}, path);
    }
    if (attr.required && (attr.optional || attr.computed)) {
      diags.error(what + " cannot be required and also optional or computed", {}, path);
    }
    if (attr.required && attr.default_value) {
      diags.error(what + " is required, so it cannot have a default", {}, path);
    }
    if (attr.computed && !attr.optional && attr.force_new) {
      diags.error(what + " is computed only, so it cannot force a new resource", {}, path);
    }
    if (attr.has_plan_function &&
        (!attr.computed || place == BlockPlace::Elsewhere || place == BlockPlace::ResourceInSet)) {
      diags.error(what + " cannot have a plan function",
                  "Only computed attributes of resources, outside sets, may plan their own value.",
                  path);
    }
    if (attr.has_requires_replace_if && place == BlockPlace::Elsewhere) {
      diags.error(what + " cannot have requires_replace_if",
                  "Only attributes of resources are ever replaced.", path);
    }
    if (attr.has_requires_replace_if && place == BlockPlace::ResourceInSet) {
      diags.error(what + " cannot have requires_replace_if",
                  "It is inside a set, whose changed element is a different element with no "
                  "address of its own; use force_new, or force a new object in customize_diff" +
                      written_as(Hint::ForceNew) + ".",
                  path);
    }
    if (attr.has_element_normaliser || (attr.nested && attr.nested->has_element_normaliser)) {
      check_element_normaliser(attr.type.kind() == TypeKind::Set, place, what, path, diags);
    }
    if (!attr.refine.empty()) check_refinement(attr, what, path, diags);
    if (attr.use_state_for_unknown && !attr.computed) {
      diags.error(what + " is not computed, so use_state_for_unknown has nothing to keep", {},
                  path);
    }
    if (attr.changes_on_update && !attr.computed) {
      diags.error(what + " is not computed, so changes_on_update does not apply",
                  "Only the provider changes a computed value; an argument changes when the "
                  "configuration does.",
                  path);
    }
    if (attr.changes_on_update && attr.use_state_for_unknown) {
      diags.error(what + " has both changes_on_update and use_state_for_unknown",
                  "use_state_for_unknown keeps the stored value in the plan of an update (the "
                  "default); changes_on_update plans it unknown. Keep the one that is true.",
                  path);
    }
    if (attr.write_only) {
      if (!resource_top_level) {
        diags.error(what + " cannot be write-only",
                    "Only top-level attributes of resources may be write-only.", path);
      }
      if (attr.computed || attr.default_value || attr.force_new) {
        diags.error(what +
                        " is write-only, so it cannot be computed, have a default or force "
                        "a new resource",
                    "Terraform keeps no value of it to compare with or to show.", path);
      }
    }
    if (attr.nested) {
      validate_block(attr.nested->block, where + "." + attr.name, diags,
                     inner(attr.nested->nesting));
    }
  }
  for (const auto& nested : block.blocks) {
    if (block.find_attribute(nested.type_name)) {
      diags.error(declared_place(nested.declared_at) + where + ": block \"" + nested.type_name +
                  "\" has the name of an attribute");
    }
    if (nested.has_element_normaliser) {
      check_element_normaliser(
          nested.nesting == NestingMode::Set, place,
          declared_place(nested.declared_at) + where + ": block \"" + nested.type_name + "\"",
          {AttributeName{nested.type_name}}, diags);
    }
    if (nested.computed) check_computed_block(nested, place, where, diags);
    validate_block(nested.block, where + "." + nested.type_name, diags, inner(nested.nesting));
  }
}

namespace {

bool is_index(const std::string& part) {
  return !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
}

// The text of `parts` one after another (what `a + b + c` would make, in one allocation).
std::string joined(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (const auto part : parts) out.append(part);
  return out;
}

// Why `address` leads nowhere in a value of type `root`, or "" when it leads somewhere. The
// walk is the one config_validation's value_at_address makes on values.
std::string address_problem(const Type& root, const std::string& address) {
  Type t = root;
  std::string walked;
  const std::vector<std::string> parts = split_address(address);
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    if (part.empty()) return "it has an empty part";
    const std::string here =
        walked.empty() ? std::string("the top of the schema") : joined({"\"", walked, "\""});
    switch (t.kind()) {
      case TypeKind::Dynamic:
        return "";  // anything may be inside
      case TypeKind::Object: {
        auto found = t.attributes().find(part);
        if (found != t.attributes().end()) {
          t = found->second;
          break;
        }
        if (is_index(part) && !walked.empty() && i + 1 < parts.size()) {
          return joined({here, " is a single block or object, addressed without an index: \"",
                         walked, ".", parts[i + 1], "\""});
        }
        return joined({here, " has no attribute or block \"", part, "\""});
      }
      case TypeKind::List:
      case TypeKind::Set:
        if (!is_index(part)) {
          return joined({here, " is a list, whose elements are addressed by index: \"", walked,
                         ".0.", part, "\""});
        }
        t = t.element();
        break;
      case TypeKind::Map:
        t = t.element();
        break;
      case TypeKind::Tuple:
        if (!is_index(part) || part.size() > 9 || std::stoul(part) >= t.tuple_elements().size()) {
          return joined({here, " is a tuple without an element ", part});
        }
        t = t.tuple_elements()[std::stoul(part)];
        break;
      default:
        return joined({here, " is a ", t.friendly_name(), ", which has no \"", part, "\""});
    }
    if (!walked.empty()) walked += '.';
    walked += part;
  }
  return "";
}

void check_addresses(const Block& block, const Type& root, const std::string& where,
                     Diagnostics& diags) {
  for (const auto& attr : block.attributes) {
    const std::pair<const char*, const std::vector<std::string>*> lists[] = {
        {"conflicts_with", &attr.conflicts_with},
        {"required_with", &attr.required_with},
        {"exactly_one_of", &attr.exactly_one_of},
        {"at_least_one_of", &attr.at_least_one_of}};
    for (const auto& [option, addresses] : lists) {
      for (const auto& address : *addresses) {
        const std::string problem = address_problem(root, address);
        if (problem.empty()) continue;
        diags.error(
            joined({declared_place(attr.declared_at), where, ": attribute \"", attr.name,
                    "\": ", option, " names \"", address, "\", which leads nowhere: ", problem}),
            "Addresses start at the top of the schema: \"name\", \"boot.image\" in a "
            "single block, \"disk.0.size\" in a list block.",
            {AttributeName{attr.name}});
      }
    }
    if (attr.nested) {
      check_addresses(attr.nested->block, root, joined({where, ".", attr.name}), diags);
    }
  }
  for (const auto& nested : block.blocks) {
    check_addresses(nested.block, root, joined({where, ".", nested.type_name}), diags);
  }
}

}  // namespace

void validate_addresses(const Block& block, const std::string& where, Diagnostics& diags) {
  check_addresses(block, block.implied_type(), where, diags);
}

namespace {

void check_function_type(const Type& t, const std::string& what, Diagnostics& diags) {
  if (!t.is_dynamic() && t.has_dynamic_types()) {
    std::string dynamic = spelled(Hint::DynamicType);
    if (dynamic.empty()) dynamic = "the dynamic pseudo-type";
    diags.error(what + " has a type with " + dynamic + " inside it (" + t.friendly_name() + "); " +
                dynamic + " can only be a whole parameter or return type");
  }
}

}  // namespace

void validate_function(const Function& function, const std::string& where, Diagnostics& diags) {
  std::set<std::string> names;
  auto check = [&](const FunctionParameter& p) {
    const std::string what = where + ": parameter \"" + p.name + "\"";
    if (p.name.empty()) diags.error(where + ": a parameter has no name");
    if (!names.insert(p.name).second) diags.error(what + " is declared twice");
    check_function_type(p.type, what, diags);
  };
  for (const auto& p : function.parameters) check(p);
  if (function.variadic) check(*function.variadic);
  check_function_type(function.returns, where + ": the return type", diags);
}

Value without_write_only(const Block& block, const Value& object) {
  if (!object.is_known() || object.is_null()) return object;
  Value out = object;
  for (const auto& attr : block.attributes) {
    if (attr.write_only) out = out.with_attribute(attr.name, Value::null(attr.type));
  }
  return out;
}

AttributePath attribute_path(const Type& object_type, const std::string& address) {
  AttributePath path;
  Type type = object_type;
  for (const std::string& part : split_address(address)) {
    switch (type.kind()) {
      case TypeKind::Object: {
        auto it = type.attributes().find(part);
        if (it == type.attributes().end()) return path;
        path.emplace_back(AttributeName{part});
        type = it->second;
        break;
      }
      case TypeKind::Map:
        path.emplace_back(ElementKey{part});
        type = type.element();
        break;
      case TypeKind::List:
      case TypeKind::Tuple: {
        if (!is_index(part) || part.size() > 18) {
          return path;
        }
        const int64_t index = std::stoll(part);
        if (type.kind() == TypeKind::Tuple) {
          if (static_cast<size_t>(index) >= type.tuple_elements().size()) return path;
          type = type.tuple_elements()[static_cast<size_t>(index)];
        } else {
          type = type.element();
        }
        path.emplace_back(ElementIndex{index});
        break;
      }
      default:
        return path;  // sets, primitives and dynamic values have no addressable parts
    }
  }
  return path;
}

}  // namespace luaform::engine
