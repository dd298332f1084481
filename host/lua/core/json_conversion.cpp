#include "host/lua/core/json_conversion.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "host/lua/core/frozen_tables.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"

namespace luaform::lua {
namespace {

// What JSON null becomes: nothing (an absent key; state tables for upgrade functions, where
// null and absent mean the same), or the module's `null` value (decode, where they differ).
enum class NullAs { Absent, Sentinel };

// The address behind the `null` light userdata: unique to this library.
const char kNullSentinel = 0;

void push_null_sentinel(lua_State* L) {
  lua_pushlightuserdata(L, const_cast<char*>(&kNullSentinel));
}

// The registry key of the metatable that marks a table as a JSON array (see json.array).
const char kArrayMarker = 0;

void mark_as_array(lua_State* L, int index) {
  index = lua_absindex(L, index);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kArrayMarker);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushliteral(L, "json array");
    lua_setfield(L, -2, "__name");
    seal_metatable(L, -1, "json array");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &kArrayMarker);
  }
  lua_setmetatable(L, index);
}

bool marked_as_array(lua_State* L, int index) {
  if (!lua_getmetatable(L, index)) return false;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kArrayMarker);
  const bool marked = lua_rawequal(L, -1, -2) != 0;
  lua_pop(L, 2);
  return marked;
}

// Deeper documents are refused rather than risking the C stack (and Lua's own limit is 200
// nested C calls).
constexpr int kMaxDepth = 150;

void push(lua_State* L, const nlohmann::json& j, NullAs null_as, int depth = 0) {
  if (depth > kMaxDepth || !lua_checkstack(L, 3)) {
    throw std::runtime_error("JSON nested more than " + std::to_string(kMaxDepth) + " levels deep");
  }
  switch (j.type()) {
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded:
      if (null_as == NullAs::Sentinel) {
        push_null_sentinel(L);
      } else {
        lua_pushnil(L);
      }
      return;
    case nlohmann::json::value_t::boolean:
      lua_pushboolean(L, j.get<bool>() ? 1 : 0);
      return;
    case nlohmann::json::value_t::number_integer:
      lua_pushinteger(L, j.get<int64_t>());
      return;
    case nlohmann::json::value_t::number_unsigned:
      if (j.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX)) {
        lua_pushinteger(L, static_cast<lua_Integer>(j.get<uint64_t>()));
      } else {
        lua_pushnumber(L, static_cast<lua_Number>(j.get<uint64_t>()));
      }
      return;
    case nlohmann::json::value_t::number_float:
      lua_pushnumber(L, j.get<double>());
      return;
    case nlohmann::json::value_t::string: {
      const auto& s = j.get_ref<const std::string&>();
      lua_pushlstring(L, s.data(), s.size());
      return;
    }
    case nlohmann::json::value_t::binary:
      throw std::runtime_error("binary values have no JSON form");
    case nlohmann::json::value_t::array: {
      lua_createtable(L, static_cast<int>(j.size()), 0);
      // An empty array is marked, so that encoding it again gives [] rather than {}.
      if (j.empty() && null_as == NullAs::Sentinel) mark_as_array(L, -1);
      lua_Integer i = 0;
      for (const auto& element : j) {
        if (element.is_null() && null_as == NullAs::Absent) {
          throw std::runtime_error("a list holds a null element, which a Lua table cannot hold");
        }
        push(L, element, null_as, depth + 1);
        lua_rawseti(L, -2, ++i);
      }
      return;
    }
    case nlohmann::json::value_t::object:
      lua_createtable(L, 0, static_cast<int>(j.size()));
      for (const auto& [key, element] : j.items()) {
        if (element.is_null() && null_as == NullAs::Absent) continue;
        lua_pushlstring(L, key.data(), key.size());
        push(L, element, null_as, depth + 1);
        lua_rawset(L, -3);
      }
      return;
  }
}

// What a JSON value of `string_bytes` of text takes in memory, roughly: the node, and a
// string's heap block.
size_t node_bytes(size_t string_bytes) {
  return sizeof(nlohmann::json) + (string_bytes > 0 ? string_bytes + 32 : 0);
}

// What the document parsed from `size` bytes of `text` will take, from one pass over the text:
// its values (a comma, colon or opening bracket each starts one), object members, and the
// bytes of its strings. nlohmann's own parse callback cannot count it: with a callback, its
// parser rescans an array at the end of every object in it (quadratic).
size_t document_bytes(const char* text, size_t size) {
  size_t values = 1;
  size_t members = 0;
  size_t string_bytes = 0;
  bool in_string = false;
  for (size_t i = 0; i < size; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      ++string_bytes;
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case ',':
      case '[':
      case '{':
        ++values;
        break;
      case ':':
        ++members;
        break;
      default:
        break;
    }
  }
  return values * node_bytes(0) + members * (node_bytes(0) + 64) + string_bytes * 2;
}

// Parses `size` bytes of `text` once the document it makes is counted against the state's
// memory limit (a text of a few MB can make a document ten times as large). With `exceptions`
// false, text that is not JSON gives a discarded value instead of a parse_error.
nlohmann::json parse_counted(lua_State* L, const char* what, const char* text, size_t size,
                             bool exceptions) {
  NativeMemory(L, what).add(document_bytes(text, size));
  return nlohmann::json::parse(text, text + size, nullptr, exceptions);
}

// Both functions are wrapped in guarded<>, so they report errors by throwing: a Lua error
// (longjmp) would skip the destructors of the strings and documents they hold.
int decode(lua_State* L) {
  size_t size = 0;
  const char* text = luaL_checklstring(L, 1, &size);
  nlohmann::json j;
  try {
    j = parse_counted(L, "json.decode", text, size, true);
  } catch (const nlohmann::json::parse_error& e) {
    // e.what() reads "[json.exception.parse_error.101] parse error at line 1, column 5: ...".
    std::string why = e.what();
    const auto at = why.find("] ");
    if (at != std::string::npos) why = why.substr(at + 2);
    throw std::runtime_error("json.decode: not valid JSON: " + why);
  }
  push(L, j, NullAs::Sentinel);
  return 1;
}

// Lua value at `index` -> JSON. `where` is the JSON path of the value ("$.a[2]") for messages.
// The document's memory is counted in `memory` as it grows (a table may hold one large string
// many times over).
nlohmann::json to_json(lua_State* L, int index, const std::string& where, int depth,
                       NativeMemory& memory);

[[noreturn]] void unusable_key(const std::string& where, const std::string& key_type) {
  throw std::runtime_error("json.encode: " + where +
                           " has a key that is neither a string nor a list position (a " +
                           key_type + ")");
}

// A table is an array when marked as one or when its keys are exactly 1..n (n >= 1); an object
// when every key is a string; anything else is refused rather than guessed at.
nlohmann::json table_to_json(lua_State* L, int index, const std::string& where, int depth,
                             NativeMemory& memory) {
  const lua_Integer length = static_cast<lua_Integer>(lua_rawlen(L, index));
  lua_Integer integer_keys = 0;
  bool string_keys = false;
  lua_pushnil(L);
  while (lua_next(L, index) != 0) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
      string_keys = true;
    } else if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 &&
               lua_tointeger(L, -1) <= length) {
      ++integer_keys;
    } else {
      const std::string key_type = luaL_typename(L, -1);
      lua_pop(L, 1);
      unusable_key(where, key_type);
    }
  }
  if (string_keys && integer_keys > 0) {
    throw std::runtime_error("json.encode: " + where + " mixes list positions and string keys");
  }
  if (integer_keys != length) {
    throw std::runtime_error("json.encode: " + where + " is a list with holes");
  }
  if (length > 0 || marked_as_array(L, index)) {
    nlohmann::json array = nlohmann::json::array();
    for (lua_Integer i = 1; i <= length; ++i) {
      lua_rawgeti(L, index, i);
      array.push_back(to_json(L, -1, where + "[" + std::to_string(i) + "]", depth + 1, memory));
      lua_pop(L, 1);
    }
    return array;
  }
  // nlohmann's object keeps its keys sorted, which makes the text stable.
  nlohmann::json object = nlohmann::json::object();
  lua_pushnil(L);
  while (lua_next(L, index) != 0) {
    const std::string key = lua_tostring(L, -2);
    std::string member = where;
    member.append(".").append(key);
    memory.add(node_bytes(key.size()) + 32);  // the key and the map's node
    object[key] = to_json(L, -1, member, depth + 1, memory);
    lua_pop(L, 1);
  }
  return object;
}

nlohmann::json to_json(lua_State* L, int index, const std::string& where, int depth,
                       NativeMemory& memory) {
  index = lua_absindex(L, index);
  if (depth > kMaxDepth || !lua_checkstack(L, 4)) {
    throw std::runtime_error("json.encode: " + where + " is nested more than " +
                             std::to_string(kMaxDepth) + " levels deep (or refers to itself)");
  }
  switch (lua_type(L, index)) {
    case LUA_TNIL:
      return nullptr;
    case LUA_TBOOLEAN:
      return lua_toboolean(L, index) != 0;
    case LUA_TNUMBER: {
      if (lua_isinteger(L, index)) return static_cast<int64_t>(lua_tointeger(L, index));
      const double number = lua_tonumber(L, index);
      if (!std::isfinite(number)) {
        throw std::runtime_error("json.encode: " + where + " is " +
                                 (std::isnan(number) ? "NaN" : "infinite") +
                                 ", which JSON cannot hold");
      }
      return number;
    }
    case LUA_TSTRING: {
      size_t size = 0;
      const char* text = lua_tolstring(L, index, &size);
      memory.add(node_bytes(size));
      return std::string(text, size);
    }
    case LUA_TLIGHTUSERDATA:
      if (lua_touserdata(L, index) == &kNullSentinel) return nullptr;
      break;
    case LUA_TTABLE:
      memory.add(node_bytes(0));
      return table_to_json(L, index, where, depth, memory);
    default:
      break;
  }
  throw std::runtime_error("json.encode: " + where + " is a " + luaL_typename(L, index) +
                           ", which JSON cannot hold");
}

// Encoded with sorted keys and no spaces; a string that is not UTF-8 is refused (JSON text is
// UTF-8) rather than mangled.
int encode(lua_State* L) {
  luaL_checkany(L, 1);
  NativeMemory memory(L, "json.encode");
  const nlohmann::json j = to_json(L, 1, "$", 0, memory);
  // The text: about as long as the document's strings, which it holds at once with them.
  memory.add(memory.held());
  std::string text;
  try {
    text = j.dump();
  } catch (const nlohmann::json::type_error&) {
    throw std::runtime_error("json.encode: a string is not valid UTF-8");
  }
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

// json.array(t): marks t (default: a new table) as a JSON array, so that it encodes as [] even
// when empty.
int array(lua_State* L) {
  if (lua_isnoneornil(L, 1)) {
    lua_settop(L, 0);
    lua_newtable(L);
  }
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  mark_as_array(L, 1);
  return 1;
}

int equivalent(lua_State* L) {
  size_t a_size = 0;
  size_t b_size = 0;
  const char* a_text = luaL_checklstring(L, 1, &a_size);
  const char* b_text = luaL_checklstring(L, 2, &b_size);
  const auto a = nlohmann::json::parse(a_text, a_text + a_size, nullptr, false);
  const auto b = nlohmann::json::parse(b_text, b_text + b_size, nullptr, false);
  lua_pushboolean(L, !a.is_discarded() && !b.is_discarded() && a == b ? 1 : 0);
  return 1;
}

}  // namespace

void push_json(lua_State* L, const std::string& text) {
  nlohmann::json j = parse_counted(L, "reading the stored state", text.data(), text.size(), false);
  if (j.is_discarded()) throw std::runtime_error("the stored state is not valid JSON");
  push(L, j, NullAs::Absent);
}

namespace {

// The JSON object in `document`; an empty document is an empty object.
nlohmann::json json_object(const std::string& document, const std::string& what) {
  if (document.empty()) return nlohmann::json::object();
  nlohmann::json j = nlohmann::json::parse(document, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    throw std::runtime_error(what + " is not a JSON object, so it was not written by luaform");
  }
  return j;
}

}  // namespace

void push_json_member(lua_State* L, const std::string& document, const std::string& key,
                      const std::string& what) {
  const nlohmann::json j = json_object(document, what);
  const auto it = j.find(key);
  if (it == j.end()) {
    lua_pushnil(L);
  } else {
    push(L, *it, NullAs::Sentinel);
  }
}

std::string with_json_member(lua_State* L, const std::string& document, const std::string& key,
                             int index, const std::string& what) {
  nlohmann::json j = json_object(document, what);
  if (lua_isnil(L, index)) {
    j.erase(key);
  } else {
    NativeMemory memory(L, what);
    j[key] = to_json(L, index, "$." + key, 0, memory);
  }
  try {
    return j.dump();
  } catch (const nlohmann::json::type_error&) {
    throw std::runtime_error(what + ": a string is not valid UTF-8");
  }
}

int open_json_module(lua_State* L) {
  const luaL_Reg functions[] = {{"decode", guarded<decode>},
                                {"encode", guarded<encode>},
                                {"array", guarded<array>},
                                {"equivalent", guarded<equivalent>},
                                {nullptr, nullptr}};
  luaL_newlib(L, functions);
  push_null_sentinel(L);
  lua_setfield(L, -2, "null");
  return 1;
}

}  // namespace luaform::lua
