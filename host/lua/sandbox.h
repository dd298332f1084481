// A fresh lua_State holding only the standard library a provider script may use (the list is
// in lua-sdk/README.md, "The sandbox"), with a count hook that ends running code once the
// provider is asked to stop.
#pragma once

#include <lua.hpp>

#include <atomic>
#include <memory>
#include <optional>
#include <string>

namespace luaform::lua {

struct StateCloser {
  void operator()(lua_State* L) const { lua_close(L); }
};
using StatePtr = std::unique_ptr<lua_State, StateCloser>;

// The message a script sees when StopProvider interrupts it.
inline constexpr const char* kStoppedMessage = "stopped by StopProvider";

// Opens the sandboxed libraries into a new state. `stop` must outlive the state; once it reads
// true, running Lua code raises kStoppedMessage. Throws std::runtime_error when Lua cannot
// allocate the state or its libraries.
StatePtr new_sandboxed_state(const std::atomic<bool>* stop);

}  // namespace luaform::lua
