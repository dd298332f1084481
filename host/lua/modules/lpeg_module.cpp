#include "host/lua/modules/lpeg_module.h"

#include <stdexcept>
#include <string>

#include "host/lua/core/guarded.h"
#include "host/lua/core/pattern_matcher.h"

// lptree.c's opener, compiled as C++ (so with C++ linkage) by host/lua/lpeg.cmake.
int luaopen_lpeg(lua_State* L);

namespace {

// The budget of the innermost match running on this thread. A match-time capture (lpeg.Cmt)
// runs Lua, which may start another match; each keeps its own budget and gives the outer one
// back when it ends, by return or by error (Lua's errors unwind as C++ exceptions here).
thread_local luaform::lua::MatchBudget* running_budget = nullptr;

class RunningBudget {
 public:
  explicit RunningBudget(luaform::lua::MatchBudget* budget) : outer_(running_budget) {
    running_budget = budget;
  }
  ~RunningBudget() { running_budget = outer_; }
  RunningBudget(const RunningBudget&) = delete;
  RunningBudget& operator=(const RunningBudget&) = delete;

 private:
  luaform::lua::MatchBudget* outer_;
};

// lpeg.match (also reached as pattern:match): LPeg's own, upvalue 1, under a budget.
int budgeted_match(lua_State* L) {
  luaform::lua::MatchBudget budget(L);
  const RunningBudget running(&budget);
  const int arguments = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, arguments, LUA_MULTRET);
  return lua_gettop(L);
}

}  // namespace

void luaform_lpeg_step(lua_State* L) {
  if (running_budget == nullptr) return;
  std::string failure;
  try {
    running_budget->step();
  } catch (const std::runtime_error& e) {
    failure = e.what();
  }
  // Raised outside the handler, at the script's line: a Lua error is a C++ exception of its
  // own, which unwinds LPeg's frames (whose memory is all Lua userdata) to the nearest
  // protected call.
  if (!failure.empty()) luaform::lua::detail::raise_message(L, "lpeg.match: " + failure);
}

namespace luaform::lua {

int open_lpeg_module(lua_State* L) {
  luaopen_lpeg(L);
  lua_getfield(L, -1, "match");
  lua_pushcclosure(L, budgeted_match, 1);
  lua_setfield(L, -2, "match");
  return 1;
}

}  // namespace luaform::lua
