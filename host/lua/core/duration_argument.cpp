#include "host/lua/core/duration_argument.h"

#include <chrono>
#include <stdexcept>

#include "host/engine/value/duration.h"

namespace luaform::lua {

double duration_seconds(lua_State* L, int index, const std::string& what) {
  if (lua_type(L, index) == LUA_TNUMBER) {
    const double seconds = lua_tonumber(L, index);
    if (!(seconds >= 0)) throw std::runtime_error(what + " must not be negative");
    return seconds;
  }
  if (lua_type(L, index) == LUA_TSTRING) {
    const std::string text = lua_tostring(L, index);
    if (const auto parsed = engine::parse_duration(text)) {
      return std::chrono::duration<double>(*parsed).count();
    }
    throw std::runtime_error(what + " \"" + text +
                             "\" is not a duration such as \"30s\", \"10m\" or \"1h30m\"");
  }
  throw std::runtime_error(what + " must be a number of seconds or a duration string, not " +
                           luaL_typename(L, index));
}

}  // namespace luaform::lua
