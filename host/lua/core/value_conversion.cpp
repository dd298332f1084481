#include "host/lua/core/value_conversion.h"

#include <cmath>
#include <map>
#include <optional>
#include <vector>

#include "host/engine/rules/zero_values.h"
#include "host/lua/core/frozen_tables.h"

namespace luaform::lua {
namespace {

using engine::Number;
using engine::Type;
using engine::TypeKind;
using engine::Value;

bool present(const Value& v) {
  return v.is_known() && !v.is_null();
}

[[noreturn]] void mismatch(lua_State* L, int index, const Type& t, const std::string& path,
                           const std::string& why = {}) {
  std::string got = luaL_typename(L, index);
  if (lua_type(L, index) == LUA_TSTRING) {
    got += " \"" + std::string(lua_tostring(L, index)) + "\"";
  }
  throw ConversionError("attribute \"" + path + "\": expected " + t.friendly_name() + ", got " +
                        (why.empty() ? got : why));
}

// The whole Lua string at `index`, embedded zero bytes included (lua_tostring stops at one).
std::string whole_string(lua_State* L, int index) {
  size_t length = 0;
  const char* s = lua_tolstring(L, index, &length);
  return std::string(s, length);
}

// The exact number a Lua number means: integers stay exact, floats take their shortest text.
std::optional<Number> lua_number(lua_State* L, int index) {
  if (lua_isinteger(L, index)) return Number::from_int(lua_tointeger(L, index));
  const double d = lua_tonumber(L, index);
  if (!std::isfinite(d)) return std::nullopt;
  return Number::from_double(d);
}

Value to_string_value(lua_State* L, int index, const Type& t, const std::string& path) {
  switch (lua_type(L, index)) {
    case LUA_TSTRING:
      return Value::string(whole_string(L, index));
    case LUA_TNUMBER: {
      auto n = lua_number(L, index);
      if (!n) mismatch(L, index, t, path, "a number that is not finite");
      return Value::string(n->text());
    }
    case LUA_TBOOLEAN:
      return Value::string(lua_toboolean(L, index) ? "true" : "false");
    default:
      mismatch(L, index, t, path);
  }
}

Value to_number_value(lua_State* L, int index, const Type& t, const std::string& path) {
  if (lua_type(L, index) == LUA_TNUMBER) {
    auto n = lua_number(L, index);
    if (!n) mismatch(L, index, t, path, "a number that is not finite");
    return Value::number(*n);
  }
  if (lua_type(L, index) == LUA_TSTRING) {
    if (auto n = Number::parse(whole_string(L, index))) return Value::number(*n);
  }
  mismatch(L, index, t, path);
}

Value to_bool_value(lua_State* L, int index, const Type& t, const std::string& path) {
  if (lua_type(L, index) == LUA_TBOOLEAN) return Value::boolean(lua_toboolean(L, index));
  if (lua_type(L, index) == LUA_TSTRING) {
    const std::string s = whole_string(L, index);
    if (s == "true" || s == "false") return Value::boolean(s == "true");
  }
  mismatch(L, index, t, path);
}

// A table whose keys are exactly 1..n: the elements of a list or set.
Value::List to_elements(lua_State* L, int index, const Type& t, const std::string& path,
                        ExtraKeys extra_keys) {
  if (!lua_istable(L, index)) mismatch(L, index, t, path);
  const lua_Unsigned length = lua_rawlen(L, index);
  lua_Unsigned keys = 0;
  lua_pushnil(L);
  while (lua_next(L, index) != 0) {
    lua_pop(L, 1);
    lua_Integer k = 0;
    if (!lua_isinteger(L, -1) || (k = lua_tointeger(L, -1)) < 1 ||
        static_cast<lua_Unsigned>(k) > length) {
      const std::string key = lua_type(L, -1) == LUA_TSTRING
                                  ? "\"" + std::string(lua_tostring(L, -1)) + "\""
                                  : std::string(luaL_typename(L, -1));
      lua_pop(L, 1);
      mismatch(L, index, t, path, "a table with key " + key + " (a list is an array table)");
    }
    ++keys;
  }
  if (keys != length) mismatch(L, index, t, path, "an array with holes");
  Value::List elements;
  elements.reserve(length);
  for (lua_Unsigned i = 1; i <= length; ++i) {
    lua_rawgeti(L, index, static_cast<lua_Integer>(i));
    const std::string element_path = path + "[" + std::to_string(i) + "]";
    elements.push_back(to_value(L, lua_gettop(L), t.element(), element_path, extra_keys));
    lua_pop(L, 1);
  }
  return elements;
}

// A table with string keys: the elements of a map or the attributes of an object.
Value::Object to_attributes(lua_State* L, int index, const Type& t, const std::string& path,
                            ExtraKeys extra_keys) {
  if (!lua_istable(L, index)) mismatch(L, index, t, path);
  Value::Object attributes;
  lua_pushnil(L);
  while (lua_next(L, index) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING) {
      const std::string key_type = luaL_typename(L, -2);
      lua_pop(L, 2);
      mismatch(L, index, t, path, "a table with a " + key_type + " key (keys must be strings)");
    }
    const std::string key = whole_string(L, -2);
    const Type* element = nullptr;
    if (t.kind() == TypeKind::Map) {
      element = &t.element();
    } else if (auto it = t.attributes().find(key); it != t.attributes().end()) {
      element = &it->second;
    } else if (extra_keys == ExtraKeys::Drop) {
      lua_pop(L, 1);
      continue;
    } else {
      lua_pop(L, 2);
      std::string message = "attribute \"" + path + "\": unexpected attribute \"";
      message += key;
      message += '"';
      throw ConversionError(message);
    }
    std::string element_path = path;
    element_path += '.';
    element_path += key;
    attributes[key] = to_value(L, lua_gettop(L), *element, element_path, extra_keys);
    lua_pop(L, 1);
  }
  return attributes;
}

// A Lua value as a value of its own type, for the dynamic pseudo-type: a string, number or
// boolean as itself, a table with keys 1..n as a tuple of its elements' types, any other
// table (the empty one too) as an object.
Value infer_value(lua_State* L, int index, const std::string& path) {
  switch (lua_type(L, index)) {
    case LUA_TSTRING:
      return to_string_value(L, index, Type::string(), path);
    case LUA_TNUMBER:
      return to_number_value(L, index, Type::number(), path);
    case LUA_TBOOLEAN:
      return Value::boolean(lua_toboolean(L, index));
    case LUA_TTABLE:
      break;
    default:
      mismatch(L, index, Type::dynamic(), path, std::string("a ") + luaL_typename(L, index));
  }
  if (lua_rawlen(L, index) > 0) {
    Value::List elements =
        to_elements(L, index, Type::list(Type::dynamic()), path, ExtraKeys::Reject);
    std::vector<Type> types;
    types.reserve(elements.size());
    for (const Value& e : elements) types.push_back(e.type());
    return Value::tuple(Type::tuple(std::move(types)), std::move(elements));
  }
  Value::Object attributes =
      to_attributes(L, index, Type::map(Type::dynamic()), path, ExtraKeys::Reject);
  std::map<std::string, Type> types;
  for (const auto& [name, v] : attributes) types.emplace(name, v.type());
  return Value::object(Type::object(std::move(types)), std::move(attributes));
}

// The registry key of the table tf.unknown stands for.
constexpr const char* kUnknownMarker = "luaform.unknown";

}  // namespace

void push_unknown_marker(lua_State* L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, kUnknownMarker) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_createtable(L, 0, 2);
  lua_pushliteral(L, "tf.unknown");
  lua_setfield(L, -2, "__name");
  // Printing it, or concatenating it by mistake, says what it is.
  lua_pushcfunction(L, [](lua_State* S) -> int {
    lua_pushliteral(S, "(known after apply)");
    return 1;
  });
  lua_setfield(L, -2, "__tostring");
  seal_metatable(L, -1, "tf.unknown");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, kUnknownMarker);
}

bool is_unknown_marker(lua_State* L, int index) {
  if (!lua_istable(L, index)) return false;
  index = lua_absindex(L, index);
  lua_getfield(L, LUA_REGISTRYINDEX, kUnknownMarker);
  const bool same = lua_rawequal(L, index, -1) != 0;
  lua_pop(L, 1);
  return same;
}

int open_values_module(lua_State* L) {
  lua_createtable(L, 0, 1);
  push_unknown_marker(L);
  lua_setfield(L, -2, "unknown");
  return 1;
}

void push_value(lua_State* L, const Value& v, Unknowns unknowns) {
  luaL_checkstack(L, 3, "value nested too deeply");
  const bool marked = unknowns == Unknowns::Marked;
  if (v.is_unknown() && marked) {
    push_unknown_marker(L);
    return;
  }
  if (!present(v)) {
    lua_pushnil(L);
    return;
  }
  switch (v.type().kind()) {
    case TypeKind::String:
      lua_pushlstring(L, v.as_string().data(), v.as_string().size());
      return;
    case TypeKind::Number:
      if (auto i = v.as_number().to_int64()) {
        lua_pushinteger(L, *i);
      } else {
        lua_pushnumber(L, v.as_number().to_double());
      }
      return;
    case TypeKind::Bool:
      lua_pushboolean(L, v.as_bool());
      return;
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Tuple: {
      lua_createtable(L, static_cast<int>(v.elements().size()), 0);
      lua_Integer i = 0;
      for (const Value& element : v.elements()) {
        if (!present(element) && !(marked && element.is_unknown())) continue;
        push_value(L, element, unknowns);
        lua_rawseti(L, -2, ++i);
      }
      return;
    }
    case TypeKind::Map:
    case TypeKind::Object:
      lua_createtable(L, 0, static_cast<int>(v.attributes().size()));
      for (const auto& [key, element] : v.attributes()) {
        if (!present(element) && !(marked && element.is_unknown())) continue;
        lua_pushlstring(L, key.data(), key.size());
        push_value(L, element, unknowns);
        lua_rawset(L, -3);
      }
      return;
    case TypeKind::Dynamic:
      lua_pushnil(L);
      return;
  }
}

void push_zero(lua_State* L, const Type& t) {
  switch (t.kind()) {
    case TypeKind::String:
      lua_pushliteral(L, "");
      return;
    case TypeKind::Number:
      lua_pushinteger(L, 0);
      return;
    case TypeKind::Bool:
      lua_pushboolean(L, 0);
      return;
    case TypeKind::Dynamic:
    // An object (a single block, say) has no empty form that differs from "absent": nil lets a
    // script write `if d:get("boot") then`, and setting nil back keeps it null.
    case TypeKind::Object:
      lua_pushnil(L);
      return;
    default:
      lua_newtable(L);
      return;
  }
}

bool is_zero(const Value& v) {
  return !present(v) || engine::is_zero_value(v);
}

// How deep a value may nest. Declared types are bounded by the schema; a dynamic value is
// bounded only by this, so that a table that contains itself is an error and not the end of
// the host's stack.
constexpr int kMaxDepth = 200;

Value to_value(lua_State* L, int index, const Type& t, const std::string& name,
               ExtraKeys extra_keys) {
  // Conversions nest only by recursion on one thread, so a thread's count is this value's.
  thread_local int depth = 0;
  struct Level {
    Level() { ++depth; }
    ~Level() { --depth; }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;
  } level;
  if (depth > kMaxDepth) {
    throw ConversionError("attribute \"" + name.substr(0, name.find_first_of(".[")) +
                          "\": the value nests more than " + std::to_string(kMaxDepth) +
                          " levels deep (a table that contains itself?)");
  }
  index = lua_absindex(L, index);
  luaL_checkstack(L, 4, "value nested too deeply");
  if (lua_isnil(L, index)) return Value::null(t);
  if (is_unknown_marker(L, index)) return Value::unknown(t);
  switch (t.kind()) {
    case TypeKind::String:
      return to_string_value(L, index, t, name);
    case TypeKind::Number:
      return to_number_value(L, index, t, name);
    case TypeKind::Bool:
      return to_bool_value(L, index, t, name);
    case TypeKind::List:
      return Value::list(t.element(), to_elements(L, index, t, name, extra_keys));
    case TypeKind::Set:
      return Value::set(t.element(), to_elements(L, index, t, name, extra_keys));
    case TypeKind::Map:
      return Value::map(t.element(), to_attributes(L, index, t, name, extra_keys));
    case TypeKind::Object:
      return Value::object(t, to_attributes(L, index, t, name, extra_keys));
    case TypeKind::Dynamic:
      return infer_value(L, index, name);
    default:
      throw ConversionError("attribute \"" + name + "\": values of type " + t.friendly_name() +
                            " cannot be set from Lua");
  }
}

}  // namespace luaform::lua
