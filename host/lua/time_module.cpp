#include "host/lua/time_module.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>

#include "host/engine/duration.h"
#include "host/lua/guarded.h"
#include "host/lua/sandbox.h"

namespace luaform::lua {
namespace {

using Clock = std::chrono::steady_clock;

// How often a sleep looks at StopProvider and the deadline: a stop is seen within this.
constexpr std::chrono::milliseconds kSlice{50};
// A longer sleep is a mistake in a provider (a day is more than any Terraform operation).
constexpr double kLongestSleep = 86400;

double seconds_of(lua_State* L, int index, const char* what) {
  if (lua_type(L, index) == LUA_TNUMBER) {
    const double seconds = lua_tonumber(L, index);
    if (!(seconds >= 0)) throw std::runtime_error(std::string(what) + " must not be negative");
    return seconds;
  }
  if (lua_type(L, index) == LUA_TSTRING) {
    const std::string text = lua_tostring(L, index);
    if (const auto parsed = engine::parse_duration(text)) {
      return std::chrono::duration<double>(*parsed).count();
    }
    throw std::runtime_error(std::string(what) + " \"" + text +
                             "\" is not a duration such as \"30s\", \"10m\" or \"1h30m\"");
  }
  throw std::runtime_error(std::string(what) + " must be a number of seconds or a duration " +
                           "string, not " + luaL_typename(L, index));
}

int sleep(lua_State* L) {
  const double seconds = std::min(seconds_of(L, 1, "sleep: the duration"), kLongestSleep);
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(seconds));
  while (true) {
    if (auto why = limit_reached(L)) throw std::runtime_error(*why);
    const auto now = Clock::now();
    if (now >= until) return 0;
    std::this_thread::sleep_for(std::min<Clock::duration>(kSlice, until - now));
  }
}

int now(lua_State* L) {
  lua_pushnumber(L, std::chrono::duration<double>(Clock::now().time_since_epoch()).count());
  return 1;
}

int seconds(lua_State* L) {
  lua_pushnumber(L, seconds_of(L, 1, "the duration"));
  return 1;
}

int format(lua_State* L) {
  const double seconds = luaL_checknumber(L, 1);
  if (!std::isfinite(seconds) || seconds < 0) {
    throw std::runtime_error("format: the duration must be a non-negative number of seconds");
  }
  const std::string text = engine::format_duration(std::chrono::duration_cast<engine::Duration>(
      std::chrono::duration<double>(std::min(seconds, 1e9))));
  lua_pushstring(L, text.c_str());
  return 1;
}

}  // namespace

int open_time_module(lua_State* L) {
  const luaL_Reg functions[] = {{"sleep", guarded<sleep>},
                                {"now", guarded<now>},
                                {"seconds", guarded<seconds>},
                                {"format", guarded<format>},
                                {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

}  // namespace luaform::lua
