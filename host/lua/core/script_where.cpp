#include "host/lua/core/script_where.h"

#include <string_view>

namespace luaform::lua {

std::string script_where(lua_State* L) {
  lua_Debug frame;
  for (int level = 1; lua_getstack(L, level, &frame) != 0; ++level) {
    if (lua_getinfo(L, "Sl", &frame) == 0 || frame.currentline <= 0) continue;
    const std::string_view source = frame.source;
    if (source.starts_with("@lua-sdk/")) continue;
    return std::string(frame.short_src) + ":" + std::to_string(frame.currentline) + ": ";
  }
  return "";
}

}  // namespace luaform::lua
