// Running a piece of Lua to its end in a state the test made (with the RunLimits it chose), for
// the tests of what ends a script: memory, the budget of a match, the deadline, a stop.
#pragma once

#include <lua.hpp>

#include <chrono>
#include <string>

#include "host/lua/core/guarded.h"

namespace luaform::lua::testing {

struct RunEnd {
  std::string error;  // the error it ended with, "" when it completed
  std::chrono::steady_clock::duration took;
};

// Runs `code` in L, as the chunk `chunkname` ("=name.lua" names it name.lua; nullptr names it
// by its text, as luaL_loadstring does).
inline RunEnd run_to_end(lua_State* L, const std::string& code, const char* chunkname) {
  const auto started = std::chrono::steady_clock::now();
  auto failure = protected_run(L, [&](lua_State* S) {
    if (luaL_loadbufferx(S, code.data(), code.size(),
                         chunkname != nullptr ? chunkname : code.c_str(), "t") != LUA_OK) {
      lua_error(S);
    }
    lua_call(S, 0, 0);
  });
  return {failure.value_or(""), std::chrono::steady_clock::now() - started};
}

}  // namespace luaform::lua::testing
