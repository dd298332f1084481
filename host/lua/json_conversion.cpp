#include "host/lua/json_conversion.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace luaform::lua {
namespace {

void push(lua_State* L, const nlohmann::json& j) {
  luaL_checkstack(L, 3, "JSON nested too deeply");
  switch (j.type()) {
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded:
      lua_pushnil(L);
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
        if (element.is_null()) {
          throw std::runtime_error("a list holds a null element, which a Lua table cannot hold");
        }
        push(L, element);
        lua_rawseti(L, -2, ++i);
      }
      return;
    }
    case nlohmann::json::value_t::object:
      lua_createtable(L, 0, static_cast<int>(j.size()));
      for (const auto& [key, element] : j.items()) {
        if (element.is_null()) continue;
        lua_pushlstring(L, key.data(), key.size());
        push(L, element);
        lua_rawset(L, -3);
      }
      return;
  }
}

}  // namespace

void push_json(lua_State* L, const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw std::runtime_error("the stored state is not valid JSON");
  push(L, j);
}

}  // namespace luaform::lua
