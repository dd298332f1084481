// The two walls between C++ and Lua. `guarded<F>` wraps every lua_CFunction we write so that a
// C++ exception becomes a Lua error instead of crossing the Lua core; `protected_run` runs C++
// code that touches a lua_State inside lua_pcall so that a Lua error becomes a message.
#pragma once

#include <lua.hpp>

#include <exception>
#include <functional>
#include <optional>
#include <string>

namespace luaform::lua {

namespace detail {
[[noreturn]] void raise_message(lua_State* L, const std::string& message);
}

template <int (*F)(lua_State*)>
int guarded(lua_State* L) {
  std::string message;
  try {
    return F(L);
  } catch (const std::exception& e) {
    // Lua's own errors are not std::exceptions and pass through untouched.
    message = e.what();
  }
  // Raised outside the catch block so that the C++ exception is finished first.
  detail::raise_message(L, message);
}

// Runs `body` inside lua_pcall, with the top `nargs` values of the stack moved into its frame
// at indices 1..nargs. Returns the error message when a Lua error (or a C++ exception, via
// `guarded`) ended it, nullopt when it completed. Either way the arguments are consumed and
// nothing is left on the stack. `handler`, when not 0, is the stack index of a message handler
// (below the arguments), which sees each error before the stack unwinds.
using Body = std::function<void(lua_State*)>;
std::optional<std::string> protected_run(lua_State* L, const Body& body, int nargs = 0,
                                         int handler = 0);

// The message of the error value on top of the stack (any Lua type), without popping it.
std::string error_message(lua_State* L, int index = -1);

}  // namespace luaform::lua
