#include "host/lua/core/value_conversion.h"

#include <cmath>
#include <map>
#include <optional>
#include <vector>

#include "host/engine/rules/zero_values.h"
#include "host/lua/core/frozen_tables.h"
#include "host/lua/core/sandbox.h"

namespace luaform::lua {
namespace {

using engine::Number;
using engine::Type;
using engine::TypeKind;
using engine::Value;

bool present(const Value& v) {
  return v.is_known() && !v.is_null();
}

// The top-level attribute of a path ("disk" of "disk[1].size"), which errors name.
std::string attribute_of(const std::string& path) {
  return path.substr(0, path.find_first_of(".["));
}

// What the outermost conversion running on this thread has built in the host's memory, counted
// against the state's memory limit: a value's strings are copies, so a table holding one large
// string many times over would otherwise take the host far past the limit. Null outside one.
thread_local NativeMemory* converted = nullptr;

// Counts `bytes` more of the value being built for `path`.
void count(size_t bytes, const std::string& path) {
  if (converted == nullptr) return;
  try {
    converted->add(bytes);
  } catch (const std::runtime_error& e) {
    throw ConversionError("attribute \"" + attribute_of(path) + "\": " + e.what());
  }
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
      count(lua_rawlen(L, index), path);
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

// Fails unless the table at `index` has exactly the keys 1..n.
void check_list_keys(lua_State* L, int index, const Type& t, const std::string& path) {
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
}

[[noreturn]] void unexpected_attribute(const std::string& path, const std::string& key) {
  std::string message = "attribute \"" + path + "\": unexpected attribute \"";
  message += key;
  message += '"';
  throw ConversionError(message);
}

// The types of a tuple's elements and of an object's attributes, for the dynamic pseudo-type.
Type tuple_type_of(const Value::List& elements) {
  std::vector<Type> types;
  types.reserve(elements.size());
  for (const Value& e : elements) types.push_back(e.type());
  return Type::tuple(std::move(types));
}

Type object_type_of(const Value::Object& attributes) {
  std::map<std::string, Type> types;
  for (const auto& [name, v] : attributes) types.emplace(name, v.type());
  return Type::object(std::move(types));
}

// How deep a value may nest. Declared types are bounded by the schema; a dynamic value is
// bounded only by this, so that a table that contains itself is an error.
constexpr size_t kMaxDepth = 200;

// A table being converted. The conversion keeps one per level of nesting in a vector, not in
// frames of the C stack: release hosts run scripts on threads of 128 KiB (musl's default), in
// which 200 levels of recursion did not fit (about 800 bytes each).
struct Table {
  enum class Kind { List, Set, Map, Object, Tuple, DynamicObject };
  Kind kind = Kind::List;
  const Type* type = nullptr;  // what the table converts to (for a tuple, a list of dynamic)
  int index = 0;               // the table's absolute index on the Lua stack
  std::string path;
  lua_Unsigned length = 0;    // list-like: how many elements
  lua_Unsigned position = 0;  // list-like: the element being converted
  Value::List elements;
  Value::Object attributes;
  std::string key;  // map-like: the member being converted

  bool list_like() const { return kind == Kind::List || kind == Kind::Set || kind == Kind::Tuple; }

  Value finish() {
    switch (kind) {
      case Kind::List:
        return Value::list(type->element(), std::move(elements));
      case Kind::Set:
        return Value::set(type->element(), std::move(elements));
      case Kind::Map:
        return Value::map(type->element(), std::move(attributes));
      case Kind::Object:
        return Value::object(*type, std::move(attributes));
      case Kind::Tuple: {
        const Type tuple = tuple_type_of(elements);
        return Value::tuple(tuple, std::move(elements));
      }
      case Kind::DynamicObject:
        break;
    }
    const Type object = object_type_of(attributes);
    return Value::object(object, std::move(attributes));
  }
};

const Type& dynamic() {
  static const Type type = Type::dynamic();
  return type;
}

const Type& dynamic_list() {
  static const Type type = Type::list(Type::dynamic());
  return type;
}

const Type& dynamic_map() {
  static const Type type = Type::map(Type::dynamic());
  return type;
}

[[noreturn]] void too_deep(const std::string& path) {
  throw ConversionError("attribute \"" + attribute_of(path) + "\": the value nests more than " +
                        std::to_string(kMaxDepth) +
                        " levels deep, the most a value may (a table that contains itself?)");
}

// Starts converting the Lua value at `index` (absolute) towards `t`: a value that is no table
// to walk is converted at once; a table is put on `tables` (map-like ones with the nil key
// lua_next starts from on the Lua stack) and nullopt returned.
std::optional<Value> begin(lua_State* L, int index, const Type& t, std::string path,
                           std::vector<Table>& tables) {
  if (tables.size() >= kMaxDepth) too_deep(path);
  luaL_checkstack(L, 4, "value nested too deeply");
  count(sizeof(Value), path);
  if (lua_isnil(L, index)) return Value::null(t);
  if (is_unknown_marker(L, index)) return Value::unknown(t);
  using Kind = Table::Kind;
  Kind kind;
  const Type* type = &t;
  switch (t.kind()) {
    case TypeKind::String:
      return to_string_value(L, index, t, path);
    case TypeKind::Number:
      return to_number_value(L, index, t, path);
    case TypeKind::Bool:
      return to_bool_value(L, index, t, path);
    case TypeKind::List:
    case TypeKind::Set:
      check_list_keys(L, index, t, path);
      kind = t.kind() == TypeKind::List ? Kind::List : Kind::Set;
      break;
    case TypeKind::Map:
    case TypeKind::Object:
      if (!lua_istable(L, index)) mismatch(L, index, t, path);
      kind = t.kind() == TypeKind::Map ? Kind::Map : Kind::Object;
      break;
    case TypeKind::Dynamic:
      // A string, number or boolean as itself, a table with keys 1..n as a tuple of its
      // elements' types, any other table (the empty one too) as an object.
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
        type = &dynamic_list();
        check_list_keys(L, index, *type, path);
        kind = Kind::Tuple;
      } else {
        type = &dynamic_map();
        kind = Kind::DynamicObject;
      }
      break;
    default:
      throw ConversionError("attribute \"" + path + "\": values of type " + t.friendly_name() +
                            " cannot be set from Lua");
  }
  Table& table = tables.emplace_back();
  table.kind = kind;
  table.type = type;
  table.index = index;
  table.path = std::move(path);
  if (table.list_like()) {
    table.length = lua_rawlen(L, index);
    table.elements.reserve(table.length);
  } else {
    lua_pushnil(L);
  }
  return std::nullopt;
}

// Converts the value at `index` towards `t`, depth first in the order the recursive
// conversion took (so the same error comes first), with its tables on a vector.
Value convert(lua_State* L, int index, const Type& t, const std::string& name,
              ExtraKeys extra_keys) {
  // Whatever a failure leaves on the Lua stack goes with it.
  struct Restore {
    lua_State* L;
    int top;
    ~Restore() { lua_settop(L, top); }
  } restore{L, lua_gettop(L)};
  std::vector<Table> tables;
  std::optional<Value> done = begin(L, lua_absindex(L, index), t, name, tables);
  while (!tables.empty()) {
    Table& table = tables.back();
    if (done) {
      // A member finished: its value (a table or not) is on top of the stack.
      lua_pop(L, 1);
      if (table.list_like()) {
        table.elements.push_back(std::move(*done));
      } else {
        table.attributes.emplace(std::move(table.key), std::move(*done));
      }
      done.reset();
    }
    if (table.list_like()) {
      if (table.position < table.length) {
        ++table.position;
        lua_rawgeti(L, table.index, static_cast<lua_Integer>(table.position));
        const Type& element = table.kind == Table::Kind::Tuple ? dynamic() : table.type->element();
        std::string path = table.path + "[" + std::to_string(table.position) + "]";
        done = begin(L, lua_gettop(L), element, std::move(path), tables);
        continue;
      }
    } else if (lua_next(L, table.index) != 0) {
      if (lua_type(L, -2) != LUA_TSTRING) {
        const std::string key_type = luaL_typename(L, -2);
        mismatch(L, table.index, *table.type, table.path,
                 "a table with a " + key_type + " key (keys must be strings)");
      }
      std::string key = whole_string(L, -2);
      count(key.size() + 64, table.path);  // the key and its node in the map
      const Type* element = nullptr;
      if (table.kind != Table::Kind::Object) {
        element = &table.type->element();
      } else if (auto it = table.type->attributes().find(key);
                 it != table.type->attributes().end()) {
        element = &it->second;
      } else if (extra_keys == ExtraKeys::Drop) {
        lua_pop(L, 1);
        continue;
      } else {
        unexpected_attribute(table.path, key);
      }
      std::string path = table.path + "." + key;
      table.key = std::move(key);
      done = begin(L, lua_gettop(L), *element, std::move(path), tables);
      continue;
    }
    // Every member converted (lua_next popped the last key): the table is done.
    done = table.finish();
    tables.pop_back();
  }
  return std::move(*done);
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

namespace {

// Where memory is counted for the levels below: the outermost conversion on this thread.
class Counting {
 public:
  explicit Counting(NativeMemory& memory) { converted = &memory; }
  ~Counting() { converted = nullptr; }
  Counting(const Counting&) = delete;
  Counting& operator=(const Counting&) = delete;
};

}  // namespace

Value to_value(lua_State* L, int index, const Type& t, const std::string& name,
               ExtraKeys extra_keys) {
  if (converted != nullptr) return convert(L, index, t, name, extra_keys);
  NativeMemory memory(L, "the value");
  const Counting counting(memory);
  return convert(L, index, t, name, extra_keys);
}

}  // namespace luaform::lua
