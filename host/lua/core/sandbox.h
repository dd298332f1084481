// A fresh lua_State holding only the standard library a provider script may use (the list is
// in lua-sdk/README.md, "The sandbox"), with a count hook that ends running code once the
// provider is asked to stop or the running operation is past its timeout, and an allocator
// that holds the state to a memory limit.
#pragma once

#include <lua.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
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

// What the count hook checks while Lua code runs.
struct RunLimits {
  // How many times StopProvider was called; running Lua code raises kStoppedMessage once it
  // differs from `stops_before`, the count when the running call began. A stop ends the calls
  // in flight, not the provider: calls that begin after it run as ever.
  const std::atomic<uint64_t>* stops = nullptr;
  uint64_t stops_before = 0;
  // While set, Lua code running past this moment raises `deadline_message`.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::string deadline_message;
  // Bytes the state may hold (0: no limit). Lua code that holds more is ended by the count hook
  // with an error at its line; a single allocation beyond a quarter more is refused outright
  // (Lua's "not enough memory"), so that no script can exhaust the host.
  size_t memory_limit = default_memory_limit();
  size_t memory_used = 0;  // kept by the allocator
  // Counts the count hook's runs, so that it asks whether the CLI cancelled the call only now
  // and then (engine::call_cancelled asks the RPC's stream).
  uint32_t ticks = 0;

  // LUAFORM_MEMORY_LIMIT_MB when set (0 for none), else 1024 MiB.
  static size_t default_memory_limit();
};

// Why code running in `L` must end now: StopProvider, or the running operation is past its
// deadline; nullopt when it may go on. For native code that waits (the HTTP client), which the
// count hook cannot reach.
std::optional<std::string> limit_reached(lua_State* L);

// Throws std::runtime_error naming `what` when the state holds more than its memory limit even
// after a full collection: for native code that builds Lua values in a loop (json.decode),
// which the count hook cannot reach and which would otherwise meet the allocator's harder
// bound as a bare "not enough memory".
void check_memory_limit(lua_State* L, const std::string& what);
// The running operation's deadline, if it has one.
std::optional<std::chrono::steady_clock::time_point> current_deadline(lua_State* L);

// What native code holds while it builds a result for a script (a JSON document, an HTTP
// response body), counted against the state's memory limit: such memory is not Lua's, so the
// allocator never sees it, and a helper could otherwise take the host far past the limit (160
// references to one 8 MiB string, encoded as JSON: 1.3 GB). add() throws std::runtime_error,
// naming `what`, once the result would not fit in what the state has left.
class NativeMemory {
 public:
  NativeMemory(lua_State* L, std::string what);
  void add(size_t bytes);
  size_t held() const { return held_; }
  // What is left under the limit for this result (SIZE_MAX without a limit).
  size_t left() const { return left_ - held_; }

 private:
  size_t limit_;
  size_t left_;
  size_t held_ = 0;
  std::string what_;
};

// Opens the sandboxed libraries into a new state checked against `limits`, which must outlive
// it. Throws std::runtime_error when Lua cannot allocate the state or its libraries.
StatePtr new_sandboxed_state(RunLimits* limits);

// Seals what every script of a state shares, once the host has set it up: from now on an
// assignment to a global (a forgotten `local`), also through _G or rawset, is an error at the
// script's line, and the strings' metatable is out of reach (getmetatable("") gives a
// string, not the table). One script can then no longer change what another sees, nor what
// a later call on the same state sees. Reading an undeclared global still gives nil.
void seal_globals(lua_State* L);

}  // namespace luaform::lua
