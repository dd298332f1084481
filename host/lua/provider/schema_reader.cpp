#include "host/lua/provider/schema_reader.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "host/engine/value/default_text.h"
#include "host/engine/value/duration.h"
#include "host/lua/core/value_conversion.h"

namespace luaform::lua {
namespace {

using engine::Attribute;
using engine::Type;

// How deeply types and blocks may nest. Real schemas stay within a handful of levels; the
// limit turns a table that contains itself (t.element = t) or a generated tower of types into
// an error instead of a C++ stack overflow.
constexpr int kMaxNesting = 64;

[[noreturn]] void fail(const std::string& name, const std::string& problem) {
  throw std::runtime_error("attribute \"" + name + "\": " + problem);
}

// A type descriptor: { kind = "type", name = "string" | "number" | "bool" | "list" | "set" |
// "map" | "object" | "dynamic", element = <descriptor>, attributes = { ... } }. `where` names
// what the type is for in messages ("attribute \"size\""). The dynamic type is only for
// function parameters and results (`allow_dynamic`). `depth` counts the enclosing types.
Type read_type(lua_State* L, int index, const std::string& where, bool allow_dynamic,
               int depth = 0) {
  index = lua_absindex(L, index);
  luaL_checkstack(L, 2, "type nested too deeply");
  auto problem = [&where](const std::string& text) {
    return std::runtime_error(where + ": " + text);
  };
  if (depth > kMaxNesting) {
    throw problem("its type nests more than " + std::to_string(kMaxNesting) +
                  " levels deep (does a table contain itself?)");
  }
  if (!lua_istable(L, index)) throw problem("its type is not a tf type");
  lua_getfield(L, index, "name");
  const std::string name = lua_isstring(L, -1) ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  if (name == "string") return Type::string();
  if (name == "number") return Type::number();
  if (name == "bool") return Type::boolean();
  if (name == "dynamic") {
    if (!allow_dynamic) {
      throw problem("tf.dynamic is only for the parameters and results of functions");
    }
    return Type::dynamic();
  }
  if (name == "object") {
    lua_getfield(L, index, "attributes");
    const int attributes = lua_gettop(L);
    if (!lua_istable(L, attributes)) throw problem("an object type needs its attributes");
    std::map<std::string, Type> members;
    lua_pushnil(L);
    while (lua_next(L, attributes) != 0) {
      if (lua_type(L, -2) != LUA_TSTRING) throw problem("object attribute names are strings");
      members.emplace(lua_tostring(L, -2), read_type(L, -1, where, allow_dynamic, depth + 1));
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return Type::object(std::move(members));
  }
  if (name == "list" || name == "set" || name == "map") {
    lua_getfield(L, index, "element");
    Type element = read_type(L, -1, where, allow_dynamic, depth + 1);
    lua_pop(L, 1);
    if (name == "list") return Type::list(element);
    if (name == "set") return Type::set(element);
    return Type::map(element);
  }
  throw problem("unknown type \"" + name + "\"");
}

bool flag(lua_State* L, int index, const char* field) {
  lua_getfield(L, index, field);
  const bool value = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return value;
}

std::string text(lua_State* L, int index, const char* field, const std::string& attribute) {
  lua_getfield(L, index, field);
  std::string value;
  if (lua_type(L, -1) == LUA_TSTRING) {
    value = lua_tostring(L, -1);
  } else if (!lua_isnil(L, -1)) {
    fail(attribute, std::string(field) + " must be a string");
  }
  lua_pop(L, 1);
  return value;
}

// `refine = { not_null = true, prefix = "arn:", min = 1, max = 9, min_length = 1,
// max_length = 3 }`: what a computed value is known to be before it is known.
engine::Refinement refinement(lua_State* L, int index, const std::string& attribute) {
  engine::Refinement r;
  if (lua_getfield(L, index, "refine") != LUA_TTABLE) {
    if (!lua_isnil(L, -1)) fail(attribute, "refine must be a table");
    lua_pop(L, 1);
    return r;
  }
  const int table = lua_gettop(L);
  r.not_null = flag(L, table, "not_null");
  r.prefix = text(L, table, "prefix", attribute);
  auto number = [&](const char* field) -> std::optional<engine::Number> {
    std::optional<engine::Number> out;
    if (lua_getfield(L, table, field) == LUA_TNUMBER) {
      out = lua_isinteger(L, -1) ? engine::Number::from_int(lua_tointeger(L, -1))
                                 : engine::Number::from_double(lua_tonumber(L, -1));
    } else if (!lua_isnil(L, -1)) {
      fail(attribute, "refine." + std::string(field) + " must be a number");
    }
    lua_pop(L, 1);
    return out;
  };
  auto length = [&](const char* field) -> std::optional<int64_t> {
    std::optional<int64_t> out;
    if (lua_getfield(L, table, field) == LUA_TNUMBER && lua_isinteger(L, -1)) {
      out = lua_tointeger(L, -1);
    } else if (!lua_isnil(L, -1)) {
      fail(attribute, "refine." + std::string(field) + " must be a whole number");
    }
    lua_pop(L, 1);
    return out;
  };
  r.min = number("min");
  r.max = number("max");
  r.min_length = length("min_length");
  r.max_length = length("max_length");
  lua_pop(L, 1);
  return r;
}

// `description = "plain text"` or `description = tf.markdown "..."` (a table tagged
// kind = "markdown"): the text, and whether it is markdown.
std::pair<std::string, bool> description(lua_State* L, int index, const std::string& attribute) {
  lua_getfield(L, index, "description");
  std::pair<std::string, bool> out{"", false};
  if (lua_istable(L, -1)) {
    const bool tagged = lua_getfield(L, -1, "kind") == LUA_TSTRING &&
                        std::string(lua_tostring(L, -1)) == "markdown";
    const bool has_text = lua_getfield(L, -2, "text") == LUA_TSTRING;
    if (!tagged || !has_text)
      fail(attribute, "description must be a string or tf.markdown \"...\"");
    out = {lua_tostring(L, -1), true};
    lua_pop(L, 2);
  } else {
    lua_pop(L, 1);
    out.first = text(L, index, "description", attribute);
    return out;
  }
  lua_pop(L, 1);
  return out;
}

// A list of attribute addresses such as { "name", "disk.0.size" }.
std::vector<std::string> addresses(lua_State* L, int index, const char* field,
                                   const std::string& attribute) {
  std::vector<std::string> out;
  lua_getfield(L, index, field);
  if (lua_istable(L, -1)) {
    const lua_Unsigned n = lua_rawlen(L, -1);
    for (lua_Unsigned i = 1; i <= n; ++i) {
      if (lua_rawgeti(L, -1, static_cast<lua_Integer>(i)) != LUA_TSTRING) {
        fail(attribute, std::string(field) + " must list attribute names");
      }
      out.emplace_back(lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  } else if (!lua_isnil(L, -1)) {
    fail(attribute, std::string(field) + " must be a list of attribute names");
  }
  lua_pop(L, 1);
  return out;
}

// The options attributes and nested attributes share: the flags, description and deprecation.
void read_common_options(lua_State* L, int index, const std::string& name, Attribute& a) {
  a.required = flag(L, index, "required");
  a.optional = flag(L, index, "optional");
  a.computed = flag(L, index, "computed");
  a.force_new = flag(L, index, "force_new");
  a.sensitive = flag(L, index, "sensitive");
  a.write_only = flag(L, index, "write_only");
  std::tie(a.description, a.description_markdown) = description(L, index, name);
  a.deprecated = text(L, index, "deprecated", name);
  a.declared_at = text(L, index, "declared_at", name);
  if (!a.required && !a.optional && !a.computed) {
    fail(name, "set one of required, optional or computed");
  }
  if (a.required && (a.optional || a.computed)) {
    fail(name, "required cannot be combined with optional or computed");
  }
}

// A default function's third result, which says where its value comes from whatever it gave
// this time: tf.env's { environment = { names }, fallback = value }. Anything else says
// nothing; a fallback that is no value of the type is left out (the load reports it when the
// environment does not stand in for it).
engine::DefaultSource default_source(lua_State* L, int index, const Type& type) {
  engine::DefaultSource out;
  if (!lua_istable(L, index)) return out;
  index = lua_absindex(L, index);
  if (lua_getfield(L, index, "environment") == LUA_TTABLE) {
    for (lua_Integer i = 1; lua_rawgeti(L, -1, i) == LUA_TSTRING; ++i) {
      out.environment.emplace_back(lua_tostring(L, -1));
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  if (out.environment.empty()) return out;
  lua_getfield(L, index, "fallback");
  if (lua_type(L, -1) == LUA_TSTRING &&
      (type.kind() == engine::TypeKind::Bool || type.kind() == engine::TypeKind::Number)) {
    std::string problem;
    out.fallback = engine::value_from_default_text(type, lua_tostring(L, -1), problem);
  } else if (!lua_isnil(L, -1)) {
    try {
      out.fallback = to_value(L, -1, type, "fallback");
    } catch (const ConversionError&) {
      out.fallback.reset();
    }
  }
  lua_pop(L, 1);
  return out;
}

// An attribute spec: { kind = "attribute", type = <descriptor>, required = true, ... }.
Attribute read_attribute(lua_State* L, int index, const std::string& name) {
  index = lua_absindex(L, index);
  if (!lua_istable(L, index)) fail(name, "declare it with tf.string { ... } and the like");
  lua_getfield(L, index, "kind");
  const bool is_attribute =
      lua_type(L, -1) == LUA_TSTRING && lua_tostring(L, -1) == std::string("attribute");
  lua_pop(L, 1);
  if (!is_attribute) fail(name, "declare it with tf.string { ... } and the like");

  Attribute a;
  a.name = name;
  lua_getfield(L, index, "type");
  a.type = read_type(L, -1, "attribute \"" + name + "\"", false);
  lua_pop(L, 1);
  read_common_options(L, index, name, a);
  a.removed = text(L, index, "removed", name);
  lua_getfield(L, index, "validate");
  a.has_validate = lua_isfunction(L, -1) || (lua_istable(L, -1) && lua_rawlen(L, -1) > 0);
  lua_pop(L, 1);
  a.use_state_for_unknown = flag(L, index, "use_state_for_unknown");
  a.changes_on_update = flag(L, index, "changes_on_update");
  a.refine = refinement(L, index, name);
  a.has_requires_replace_if = lua_getfield(L, index, "requires_replace_if") == LUA_TFUNCTION;
  a.has_plan_function = lua_getfield(L, index, "plan") == LUA_TFUNCTION;
  lua_pop(L, 2);
  a.has_equivalence = lua_getfield(L, index, "diff_suppress") == LUA_TFUNCTION;
  a.has_equivalence = lua_getfield(L, index, "state_func") == LUA_TFUNCTION || a.has_equivalence;
  a.has_element_normaliser = lua_getfield(L, index, "element_state_func") == LUA_TFUNCTION;
  lua_pop(L, 3);
  a.conflicts_with = addresses(L, index, "conflicts_with", name);
  a.required_with = addresses(L, index, "required_with", name);
  a.exactly_one_of = addresses(L, index, "exactly_one_of", name);
  a.at_least_one_of = addresses(L, index, "at_least_one_of", name);
  lua_getfield(L, index, "default");
  if (lua_isfunction(L, -1)) {
    // A default function runs once, here: a value it gives is the default, and a required
    // attribute with such a value becomes optional (helper/schema's DefaultFunc rule). Its
    // errors carry the script's line, since this runs inside the script's protected call. A
    // second result names where the value came from (tf.env gives the variable's name), the
    // third where it comes from at all, for the docs (tf.env's variables and fallback).
    luaL_checkstack(L, 3, "default function");
    lua_call(L, 0, 3);
    a.default_source = default_source(L, -1, a.type);
    a.default_source->declared_required = a.required;
    lua_pop(L, 1);
    const std::string source = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    lua_pop(L, 1);
    if (!lua_isnil(L, -1) && a.required) {
      a.required = false;
      a.optional = true;
    }
    // Text for a bool or a number (the environment holds only text) is read as
    // helper/schema reads it; text that is no such value fails the configurations that need it.
    if (lua_type(L, -1) == LUA_TSTRING &&
        (a.type.kind() == engine::TypeKind::Bool || a.type.kind() == engine::TypeKind::Number)) {
      std::string problem;
      a.default_value = engine::value_from_default_text(a.type, lua_tostring(L, -1), problem);
      if (!a.default_value) {
        a.default_problem =
            (source.empty() ? "its default function gave " : source + ": ") + problem;
      }
      lua_pop(L, 1);
      return a;
    }
  }
  if (!lua_isnil(L, -1)) {
    if (a.required) fail(name, "a required attribute cannot have a default");
    try {
      a.default_value = to_value(L, -1, a.type, name);
    } catch (const ConversionError& e) {
      throw std::runtime_error(std::string("default of ") + e.what());
    }
  }
  lua_pop(L, 1);
  return a;
}

std::string kind_of(lua_State* L, int index) {
  if (!lua_istable(L, index)) return "";
  lua_getfield(L, index, "kind");
  std::string kind = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  return kind;
}

int64_t count(lua_State* L, int index, const char* field, const std::string& name) {
  lua_getfield(L, index, field);
  int64_t value = 0;
  if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 0) {
    value = lua_tointeger(L, -1);
  } else if (!lua_isnil(L, -1)) {
    fail(name, std::string(field) + " must be a whole number of at least 0");
  }
  lua_pop(L, 1);
  return value;
}

// A set block's or set nested attribute's element_state_func.
bool normalises_elements(lua_State* L, int index) {
  const bool found = lua_getfield(L, index, "element_state_func") == LUA_TFUNCTION;
  lua_pop(L, 1);
  return found;
}

engine::NestingMode nesting_mode(lua_State* L, int index, const std::string& name) {
  const std::string nesting = text(L, index, "nesting", name);
  if (nesting == "list") return engine::NestingMode::List;
  if (nesting == "set") return engine::NestingMode::Set;
  if (nesting == "single") return engine::NestingMode::Single;
  if (nesting == "map") return engine::NestingMode::Map;
  fail(name, "unknown nesting \"" + nesting + "\"");
}

void read_block(lua_State* L, int schema_index, engine::Block& block, const std::string& where,
                int depth);

// A block spec: { kind = "block", nesting = "list" | "set" | "single", schema = {...},
// min_items = n, max_items = n, required = true, force_new = true, ... }.
engine::NestedBlock read_nested_block(lua_State* L, int index, const std::string& name, int depth) {
  index = lua_absindex(L, index);
  luaL_checkstack(L, 4, "blocks nested too deeply");
  engine::NestedBlock nested;
  nested.type_name = name;
  nested.nesting = nesting_mode(L, index, name);
  nested.min_items = count(L, index, "min_items", name);
  nested.max_items = count(L, index, "max_items", name);
  if (flag(L, index, "required") && nested.min_items == 0) nested.min_items = 1;
  if (nested.nesting == engine::NestingMode::Single && nested.min_items > 0) {
    nested.min_items = 1;
    nested.max_items = 1;
  }
  nested.force_new = flag(L, index, "force_new");
  nested.computed = flag(L, index, "computed");
  nested.has_element_normaliser = normalises_elements(L, index);
  std::tie(nested.block.description, nested.block.description_markdown) =
      description(L, index, name);
  nested.block.deprecated = text(L, index, "deprecated", name);
  nested.declared_at = text(L, index, "declared_at", name);
  lua_getfield(L, index, "schema");
  if (!lua_istable(L, -1)) fail(name, "a block needs a schema table");
  read_block(L, lua_gettop(L), nested.block, name + ".", depth + 1);
  lua_pop(L, 1);
  return nested;
}

// A nested attribute spec (protocol 6): { kind = "nested_attribute", nesting = "single" |
// "list" | "set" | "map", schema = { attributes only }, required = true, ... }.
Attribute read_nested_attribute(lua_State* L, int index, const std::string& name,
                                const std::string& short_name, int depth) {
  index = lua_absindex(L, index);
  luaL_checkstack(L, 4, "attributes nested too deeply");
  Attribute a;
  read_common_options(L, index, name, a);
  auto nested = std::make_shared<engine::NestedBlock>();
  nested->type_name = short_name;
  nested->nesting = nesting_mode(L, index, name);
  nested->force_new = a.force_new;
  nested->has_element_normaliser = normalises_elements(L, index);
  lua_getfield(L, index, "schema");
  if (!lua_istable(L, -1)) fail(name, "a nested attribute needs a schema table");
  read_block(L, lua_gettop(L), nested->block, name + ".", depth + 1);
  lua_pop(L, 1);
  if (!nested->block.blocks.empty()) {
    fail(name, "a nested attribute holds attributes only, not blocks");
  }
  a.type = nested->implied_type();
  a.nested = std::move(nested);
  return a;
}

// Reads the attributes and blocks of the `schema = { ... }` table at `schema_index`; `depth`
// counts the blocks and nested attributes around it.
void read_block(lua_State* L, int schema_index, engine::Block& block, const std::string& where,
                int depth) {
  if (depth > kMaxNesting) {
    throw std::runtime_error(where + ": blocks nest more than " + std::to_string(kMaxNesting) +
                             " levels deep (does a schema table contain itself?)");
  }
  lua_pushnil(L);
  while (lua_next(L, schema_index) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING) {
      throw std::runtime_error("schema keys must be attribute names (strings)");
    }
    const std::string name = where + lua_tostring(L, -2);
    const std::string kind = kind_of(L, -1);
    if (kind == "block") {
      block.blocks.push_back(read_nested_block(L, -1, name, depth));
      block.blocks.back().type_name = lua_tostring(L, -2);
    } else if (kind == "nested_attribute") {
      block.attributes.push_back(read_nested_attribute(L, -1, name, lua_tostring(L, -2), depth));
      block.attributes.back().name = lua_tostring(L, -2);
    } else {
      block.attributes.push_back(read_attribute(L, -1, name));
      block.attributes.back().name = lua_tostring(L, -2);
    }
    lua_pop(L, 1);
  }
  // Lua tables have no order; sorting keeps the schema the same from run to run.
  std::sort(block.attributes.begin(), block.attributes.end(),
            [](const Attribute& a, const Attribute& b) { return a.name < b.name; });
  std::sort(block.blocks.begin(), block.blocks.end(),
            [](const engine::NestedBlock& a, const engine::NestedBlock& b) {
              return a.type_name < b.type_name;
            });
}

// A version number field (0 when absent); `what` names it in the error.
int64_t version(lua_State* L, int index, const char* field, const std::string& what) {
  lua_getfield(L, index, field);
  int64_t out = 0;
  if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 0) {
    out = lua_tointeger(L, -1);
  } else if (!lua_isnil(L, -1)) {
    throw std::runtime_error(what + " must be a whole number of at least 0");
  }
  lua_pop(L, 1);
  return out;
}

// identity = { schema = { name = tf.string { required_for_import = true }, ... }, version = N,
// mutable = true } at `index`.
engine::ResourceIdentity read_identity(lua_State* L, int index) {
  index = lua_absindex(L, index);
  engine::ResourceIdentity identity;
  identity.version = version(L, index, "version", "identity.version");
  identity.mutable_identity = flag(L, index, "mutable");
  if (lua_getfield(L, index, "schema") != LUA_TTABLE) {
    throw std::runtime_error("identity.schema must be a table of attributes");
  }
  const int attributes = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, attributes) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING) {
      throw std::runtime_error("identity.schema keys must be attribute names (strings)");
    }
    engine::IdentityAttribute a;
    a.name = lua_tostring(L, -2);
    const std::string where = "identity attribute \"" + a.name + "\"";
    if (kind_of(L, -1) != "attribute") {
      throw std::runtime_error(where +
                               ": declare it with tf.string { required_for_import = "
                               "true } and the like");
    }
    lua_getfield(L, -1, "type");
    a.type = read_type(L, -1, where, false);
    lua_pop(L, 1);
    a.required_for_import = flag(L, -1, "required_for_import");
    a.optional_for_import = flag(L, -1, "optional_for_import");
    std::tie(a.description, a.description_markdown) = description(L, lua_gettop(L), a.name);
    identity.attributes.push_back(std::move(a));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  std::sort(identity.attributes.begin(), identity.attributes.end(),
            [](const engine::IdentityAttribute& a, const engine::IdentityAttribute& b) {
              return a.name < b.name;
            });
  return identity;
}

}  // namespace

engine::Schema read_schema(lua_State* L, int index, bool with_id) {
  index = lua_absindex(L, index);
  engine::Schema schema;
  std::tie(schema.block.description, schema.block.description_markdown) =
      description(L, index, "description");
  schema.block.deprecated = text(L, index, "deprecated", "deprecated");

  schema.version = version(L, index, "schema_version", "schema_version");

  lua_getfield(L, index, "timeouts");
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
      const std::string operation = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
      const std::string text = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
      auto duration = engine::parse_duration(text);
      if (!duration) {
        std::string problem = "timeouts.";
        problem += operation;
        problem += " = \"";
        problem += text;
        problem += "\" is not a duration such as \"30s\", \"10m\" or \"1h\"";
        throw std::runtime_error(problem);
      }
      schema.timeouts[operation] = *duration;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);

  if (lua_getfield(L, index, "identity") == LUA_TTABLE) schema.identity = read_identity(L, -1);
  lua_pop(L, 1);

  lua_getfield(L, index, "schema");
  const int attributes = lua_gettop(L);
  if (!lua_isnil(L, attributes)) {
    if (!lua_istable(L, attributes)) throw std::runtime_error("schema must be a table");
    read_block(L, attributes, schema.block, "", 0);
  }
  lua_pop(L, 1);

  if (with_id) {
    if (schema.block.find_attribute("id") || schema.block.find_block("id")) {
      fail("id", "\"id\" is reserved: every object has a computed id, set with d:set_id");
    }
    Attribute id;
    id.name = "id";
    id.type = Type::string();
    id.computed = true;
    id.description = "The identifier of this object.";
    schema.block.attributes.insert(schema.block.attributes.begin(), std::move(id));
  }
  return schema;
}

namespace {

// { name = "text", type = tf.string, description = ..., allow_null = ..., allow_unknown = ... }
engine::FunctionParameter read_parameter(lua_State* L, int index, const std::string& what) {
  index = lua_absindex(L, index);
  if (!lua_istable(L, index)) {
    throw std::runtime_error(what + " must be a table { name = ..., type = ... }");
  }
  engine::FunctionParameter p;
  if (lua_getfield(L, index, "name") != LUA_TSTRING) {
    throw std::runtime_error(what + " needs a name");
  }
  p.name = lua_tostring(L, -1);
  lua_pop(L, 1);
  const std::string where = "parameter \"" + p.name + "\"";
  lua_getfield(L, index, "type");
  p.type = read_type(L, -1, where, true);
  lua_pop(L, 1);
  std::tie(p.description, p.description_markdown) = description(L, index, p.name);
  p.allow_null = flag(L, index, "allow_null");
  p.allow_unknown = flag(L, index, "allow_unknown");
  return p;
}

}  // namespace

engine::Function read_function(lua_State* L, int index) {
  index = lua_absindex(L, index);
  engine::Function f;
  if (lua_getfield(L, index, "params") == LUA_TTABLE) {
    const lua_Unsigned n = lua_rawlen(L, -1);
    for (lua_Unsigned i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, static_cast<lua_Integer>(i));
      f.parameters.push_back(read_parameter(L, -1, "params[" + std::to_string(i) + "]"));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  if (lua_getfield(L, index, "variadic") != LUA_TNIL) {
    f.variadic = read_parameter(L, -1, "variadic");
  }
  lua_pop(L, 1);
  lua_getfield(L, index, "returns");
  f.returns = read_type(L, -1, "the return type", true);
  lua_pop(L, 1);
  f.summary = text(L, index, "summary", "summary");
  std::tie(f.description, f.description_markdown) = description(L, index, "description");
  f.deprecated = text(L, index, "deprecated", "deprecated");
  return f;
}

}  // namespace luaform::lua
