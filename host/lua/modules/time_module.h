// The module `require("luaform_time")` returns (also `tf.time`): waiting and durations for
// scripts and for the SDK's wait_for and retry.
//
//   sleep(seconds)         waits; ends early with an error (at the script's line) on
//                          StopProvider or when the running operation's timeout passes
//   now()                  seconds on a monotonic clock (for measuring, not for dates)
//   seconds(d)             a duration as seconds: a number as it is, or Terraform's syntax
//                          ("90s", "10m", "1h30m"); anything else raises an error naming it
//   format(seconds)        "1m30s", the way Terraform prints durations
#pragma once

#include <lua.hpp>

namespace luaform::lua {

// Installed in package.preload as a C function, so the sandbox's no-C-loaders rule holds.
int open_time_module(lua_State* L);

// Sleeps `seconds` (at most a day), looking at StopProvider and the running operation's
// deadline every 50 ms; throws std::runtime_error with the reason when either ends it. For
// tf.time.sleep and LuaSocket's socket.sleep.
void sleep_within_limits(lua_State* L, double seconds);

}  // namespace luaform::lua
