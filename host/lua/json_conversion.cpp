#include "host/lua/json_conversion.h"

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "host/lua/guarded.h"

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

// Both functions are wrapped in guarded<>, so they report errors by throwing: a Lua error
// (longjmp) would skip the destructors of the strings and documents they hold.
int decode(lua_State* L) {
  size_t size = 0;
  const char* text = luaL_checklstring(L, 1, &size);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text, text + size);
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
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw std::runtime_error("the stored state is not valid JSON");
  push(L, j, NullAs::Absent);
}

int open_json_module(lua_State* L) {
  const luaL_Reg functions[] = {
      {"decode", guarded<decode>}, {"equivalent", guarded<equivalent>}, {nullptr, nullptr}};
  luaL_newlib(L, functions);
  push_null_sentinel(L);
  lua_setfield(L, -2, "null");
  return 1;
}

}  // namespace luaform::lua
