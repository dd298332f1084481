#include "host/lua/schema_reader.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "host/lua/value_conversion.h"

namespace luaform::lua {
namespace {

using engine::Attribute;
using engine::Type;

[[noreturn]] void fail(const std::string& name, const std::string& problem) {
  throw std::runtime_error("attribute \"" + name + "\": " + problem);
}

// A type descriptor: { kind = "type", name = "string" | "number" | "bool" | "list" | "set" |
// "map", element = <descriptor> }.
Type read_type(lua_State* L, int index, const std::string& attribute) {
  index = lua_absindex(L, index);
  luaL_checkstack(L, 2, "type nested too deeply");
  if (!lua_istable(L, index)) fail(attribute, "its type is not a tf type");
  lua_getfield(L, index, "name");
  const std::string name = lua_isstring(L, -1) ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  if (name == "string") return Type::string();
  if (name == "number") return Type::number();
  if (name == "bool") return Type::boolean();
  if (name == "list" || name == "set" || name == "map") {
    lua_getfield(L, index, "element");
    Type element = read_type(L, -1, attribute);
    lua_pop(L, 1);
    if (name == "list") return Type::list(element);
    if (name == "set") return Type::set(element);
    return Type::map(element);
  }
  fail(attribute, "unknown type \"" + name + "\"");
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
  a.type = read_type(L, -1, name);
  lua_pop(L, 1);
  a.required = flag(L, index, "required");
  a.optional = flag(L, index, "optional");
  a.computed = flag(L, index, "computed");
  a.force_new = flag(L, index, "force_new");
  a.sensitive = flag(L, index, "sensitive");
  a.description = text(L, index, "description", name);
  a.deprecated = text(L, index, "deprecated", name);
  if (!a.required && !a.optional && !a.computed) {
    fail(name, "set one of required, optional or computed");
  }
  if (a.required && (a.optional || a.computed)) {
    fail(name, "required cannot be combined with optional or computed");
  }
  lua_getfield(L, index, "default");
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

}  // namespace

engine::Schema read_schema(lua_State* L, int index, bool with_id) {
  index = lua_absindex(L, index);
  engine::Schema schema;
  lua_getfield(L, index, "description");
  if (lua_type(L, -1) == LUA_TSTRING) schema.block.description = lua_tostring(L, -1);
  lua_pop(L, 1);

  lua_getfield(L, index, "schema");
  const int attributes = lua_gettop(L);
  if (!lua_isnil(L, attributes)) {
    if (!lua_istable(L, attributes)) throw std::runtime_error("schema must be a table");
    lua_pushnil(L);
    while (lua_next(L, attributes) != 0) {
      if (lua_type(L, -2) != LUA_TSTRING) {
        throw std::runtime_error("schema keys must be attribute names (strings)");
      }
      const std::string name = lua_tostring(L, -2);
      if (with_id && name == "id") {
        fail(name, "\"id\" is reserved: every object has a computed id, set with d:set_id");
      }
      schema.block.attributes.push_back(read_attribute(L, -1, name));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);

  // Lua tables have no order; sorting keeps the schema the same from run to run.
  std::sort(schema.block.attributes.begin(), schema.block.attributes.end(),
            [](const Attribute& a, const Attribute& b) { return a.name < b.name; });
  if (with_id) {
    Attribute id;
    id.name = "id";
    id.type = Type::string();
    id.computed = true;
    id.description = "The identifier of this object.";
    schema.block.attributes.insert(schema.block.attributes.begin(), std::move(id));
  }
  return schema;
}

}  // namespace luaform::lua
