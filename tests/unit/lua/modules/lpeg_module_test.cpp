// require("lpeg"): LPeg as its manual describes it, reached through the host's loader, and a match
// that backtracks without end ended by the budget Lua's string patterns have here: its two
// seconds, the operation's deadline, a stop.
#include "host/lua/modules/lpeg_module.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "host/lua/core/sandbox.h"
#include "limited_run.h"
#include "provider_dir.h"

using namespace luaform::lua;
using luaform::lua::testing::evaluate;

namespace {

// A grammar whose matching time doubles with each "a" of the subject: S <- 'a' S 'b' /
// 'a' S 'c' / '', against a's only, tries both first branches at every depth.
constexpr const char* kExponential = R"(
local lpeg = require("lpeg")
local P, V = lpeg.P, lpeg.V
local g = P { "S", S = P "a" * V "S" * P "b" + P "a" * V "S" * P "c" + P "" }
return g:match(string.rep("a", 60))
)";

}  // namespace

TEST_CASE("lpeg: patterns, captures and grammars as LPeg 1.0.2 gives them") {
  CHECK(evaluate("require('lpeg').version()") == "1.0.2");
  CHECK(evaluate("require('lpeg').match(require('lpeg').R('09') ^ 1, '2024x')") == "5");
  // The method form (the patterns' __index is the module) and table captures.
  CHECK(evaluate("table.concat(require('lpeg').Ct((require('lpeg').C(require('lpeg').R('az') ^ 1)"
                 " * require('lpeg').P(',') ^ -1) ^ 0):match('ab,cd,ef'), '|')") == "ab|cd|ef");
  // What pgmoon decodes with it: a PostgreSQL array literal, quoted elements and NULL among them.
  CHECK(evaluate(R"((function()
    local lpeg = require("lpeg")
    local P, S, C, Ct, V = lpeg.P, lpeg.S, lpeg.C, lpeg.Ct, lpeg.V
    local quoted = P('"') * C(((P("\\") * P(1) + (1 - S('"\\'))) ^ 0)) * P('"')
    local plain = C((1 - S('{},"')) ^ 1)
    local array = P { "array",
      array = Ct(P("{") * (V("item") * (P(",") * V("item")) ^ 0) ^ -1 * P("}")),
      item = V("array") + quoted + plain,
    }
    local got = array:match('{1,"a b",{2,3},NULL}')
    return #got .. ":" .. got[1] .. "|" .. got[2] .. "|" .. got[3][2] .. "|" .. got[4]
  end)())") == "4:1|a b|3|NULL");
  // A match-time capture runs Lua that matches again: the inner match ends, the outer goes on.
  CHECK(evaluate("require('lpeg').Cmt(require('lpeg').C(require('lpeg').P(1) ^ 1), function(s, i,"
                 " c) return require('lpeg').match(require('lpeg').P('x') ^ 1, c) == 4 "
                 "end):match('xxx')") == "4");
  // The debugging printers write to standard output, which is the plugin protocol's: refused.
  CHECK(evaluate("require('lpeg').ptree(require('lpeg').P('a'))")
            .find("function only implemented in debug mode") != std::string::npos);
}

TEST_CASE(
    "lpeg: a match that backtracks without end gives up at the budget, the deadline or "
    "a stop, at the script's line") {
  RunLimits limits;
  limits.memory_limit = 0;
  StatePtr state = new_sandboxed_state(&limits);
  lua_State* L = state.get();
  luaL_requiref(L, "lpeg", open_lpeg_module, 0);
  lua_pop(L, 1);
  auto run = [&] {
    const testing::RunEnd end = testing::run_to_end(L, kExponential, "=grammar.lua");
    CHECK(end.took < std::chrono::seconds(120));  // about two seconds; the sanitizers slow it down
    CHECK(!end.error.empty());
    return end.error;
  };  // No deadline: the two seconds end it, at the line of the match.
  const std::string budget = run();
  CHECK(budget.find("grammar.lua:5: lpeg.match: pattern too complex for this subject") == 0);
  // A deadline that passes first.
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  limits.deadline_message = "create did not finish within its timeout of 100ms";
  CHECK(run().find("grammar.lua:5: lpeg.match: create did not finish within its timeout") == 0);
  limits.deadline.reset();
  // A stop, from another thread, while it runs.
  std::atomic<uint64_t> stops{0};
  limits.stops = &stops;
  limits.stops_before = 0;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stops = 1;
  });
  const std::string stopped = run();
  stopper.join();
  CHECK(stopped.find("stopped by StopProvider") != std::string::npos);
  // The state goes on: a match after those is on a budget of its own.
  limits.stops = nullptr;
  REQUIRE(luaL_dostring(L, "return require('lpeg').match(require('lpeg').P('ab'), 'abc')") ==
          LUA_OK);
  CHECK(lua_tointeger(L, -1) == 3);
}

TEST_CASE("lpeg: what a match holds counts against the memory limit") {
  // A capture per byte of a 4 MB subject under a limit of 16 MiB: an error at the script's
  // line, and the state goes on.
  RunLimits limits;
  limits.memory_limit = size_t{16} << 20;
  StatePtr state = new_sandboxed_state(&limits);
  lua_State* L = state.get();
  luaL_requiref(L, "lpeg", open_lpeg_module, 0);
  lua_pop(L, 1);
  const char* hog =
      "local lpeg = require('lpeg')\n"
      "return lpeg.Ct(lpeg.C(1) ^ 0):match(string.rep('x', 4 * 1024 * 1024))";
  CHECK(testing::run_to_end(L, hog, "=hog.lua").error.find("not enough memory") !=
        std::string::npos);

  lua_gc(L, LUA_GCCOLLECT);
  REQUIRE(luaL_dostring(L, "return require('lpeg').match(require('lpeg').P('ab'), 'abc')") ==
          LUA_OK);
  CHECK(lua_tointeger(L, -1) == 3);
  CHECK(limits.memory_used < limits.memory_limit / 2);
}
