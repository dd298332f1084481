#include "host/lua/core/guarded.h"

#include <stdexcept>

#include "host/lua/core/script_where.h"

namespace luaform::lua {
namespace detail {

void raise_message(lua_State* L, const std::string& message) {
  // Prefixed with the script line that led here: the caller, or when an SDK helper called the
  // C function, the script line that called the helper.
  const std::string where = script_where(L);
  lua_pushlstring(L, where.data(), where.size());
  lua_pushlstring(L, message.data(), message.size());
  lua_concat(L, 2);
  lua_error(L);
  throw std::logic_error("lua_error returned");  // unreachable: lua_error never returns
}

}  // namespace detail

namespace {

int run_body(lua_State* L) {
  const auto* body = static_cast<const Body*>(lua_touserdata(L, 1));
  lua_remove(L, 1);
  (*body)(L);
  return 0;
}

}  // namespace

std::optional<std::string> protected_run(lua_State* L, const Body& body, int nargs, int handler) {
  const int base = lua_gettop(L) - nargs;
  // Neither push allocates, so nothing here can raise outside the protected call.
  lua_pushcfunction(L, guarded<run_body>);
  lua_pushlightuserdata(L, const_cast<Body*>(&body));
  lua_rotate(L, base + 1, 2);  // function, body, args...
  std::optional<std::string> failure;
  if (lua_pcall(L, nargs + 1, 0, handler) != LUA_OK) failure = error_message(L);
  lua_settop(L, base);
  return failure;
}

std::string error_message(lua_State* L, int index) {
  const int type = lua_type(L, index);
  if (type == LUA_TSTRING || type == LUA_TNUMBER) {
    size_t length = 0;
    lua_pushvalue(L, index);  // lua_tolstring converts numbers in place; convert a copy
    const char* text = lua_tolstring(L, -1, &length);
    std::string message(text, length);
    lua_pop(L, 1);
    return message;
  }
  // An error object with __tostring describes itself; calling it may fail, so it is guarded.
  std::string text;
  lua_pushvalue(L, index);
  auto failure = protected_run(
      L,
      [&text](lua_State* S) {
        if (luaL_callmeta(S, 1, "__tostring") && lua_type(S, -1) == LUA_TSTRING) {
          text = lua_tostring(S, -1);
        }
      },
      1);
  if (!failure && !text.empty()) return text;
  return std::string("(error object is a ") + lua_typename(L, type) + " value)";
}

}  // namespace luaform::lua
