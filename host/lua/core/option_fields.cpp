#include "host/lua/core/option_fields.h"

#include <stdexcept>

namespace luaform::lua {

std::optional<std::string> string_field(lua_State* L, int table, const char* name,
                                        const std::string& what) {
  lua_getfield(L, table, name);
  std::optional<std::string> out;
  if (lua_type(L, -1) == LUA_TSTRING) {
    size_t length = 0;
    const char* text = lua_tolstring(L, -1, &length);
    out.emplace(text, length);
  } else if (!lua_isnil(L, -1)) {
    throw std::runtime_error((what.empty() ? "" : what + ": ") + name + " must be a string, not " +
                             luaL_typename(L, -1));
  }
  lua_pop(L, 1);
  return out;
}

}  // namespace luaform::lua
