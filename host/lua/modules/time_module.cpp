#include "host/lua/modules/time_module.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>

#include "host/engine/value/duration.h"
#include "host/engine/value/timestamp.h"
#include "host/lua/core/duration_argument.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"

namespace luaform::lua {
namespace {

using Clock = std::chrono::steady_clock;

// How often a sleep looks at StopProvider and the deadline: a stop is seen within this.
constexpr std::chrono::milliseconds kSlice{50};
// A longer sleep is a mistake in a provider (a day is more than any Terraform operation).
constexpr double kLongestSleep = 86400;

int sleep(lua_State* L) {
  sleep_within_limits(L, duration_seconds(L, 1, "sleep: the duration"));
  return 0;
}

int now(lua_State* L) {
  lua_pushnumber(L, std::chrono::duration<double>(Clock::now().time_since_epoch()).count());
  return 1;
}

// A whole number of seconds is an integer ("1h30m" is 5400, not 5400.0), as the types say.
int seconds(lua_State* L) {
  const double value = duration_seconds(L, 1, "the duration");
  lua_Integer whole = 0;
  if (lua_numbertointeger(std::floor(value), &whole) && static_cast<double>(whole) == value) {
    lua_pushinteger(L, whole);
  } else {
    lua_pushnumber(L, value);
  }
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

// "2026-11-24T19:29:13Z" (any offset) -> seconds since 1970 in UTC: an integer when the text
// has no fraction.
int parse_rfc3339(lua_State* L) {
  const std::string text = luaL_checkstring(L, 1);
  const auto parsed = engine::parse_rfc3339(text);
  if (!parsed) {
    throw std::runtime_error("parse_rfc3339: \"" + text +
                             "\" is not an RFC 3339 timestamp such as \"2026-11-24T19:29:13Z\" "
                             "or \"2026-11-24T20:29:13.5+01:00\"");
  }
  if (parsed->nanos == 0) {
    lua_pushinteger(L, static_cast<lua_Integer>(parsed->seconds));
  } else {
    lua_pushnumber(L, static_cast<double>(parsed->seconds) + parsed->nanos / 1e9);
  }
  return 1;
}

// Seconds since 1970 (default: now, by the wall clock) -> "2026-11-24T19:29:13Z".
int rfc3339(lua_State* L) {
  engine::Timestamp t;
  if (lua_isnoneornil(L, 1)) {
    const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
    const auto whole = std::chrono::floor<std::chrono::seconds>(since_epoch);
    t = {whole.count(),
         static_cast<int32_t>(
             std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch - whole).count())};
  } else if (lua_isinteger(L, 1)) {
    t = {static_cast<int64_t>(lua_tointeger(L, 1)), 0};
  } else {
    const double seconds = luaL_checknumber(L, 1);
    if (!std::isfinite(seconds) || std::abs(seconds) > 1e12) {
      throw std::runtime_error("rfc3339: the time must be a finite number of seconds since 1970");
    }
    // A double holds such a time to about a microsecond: round there, not to noise.
    const double whole = std::floor(seconds);
    auto micros = std::llround((seconds - whole) * 1e6);
    t = {static_cast<int64_t>(whole), 0};
    if (micros == 1'000'000) {
      ++t.seconds;
      micros = 0;
    }
    t.nanos = static_cast<int32_t>(micros * 1000);
  }
  const auto text = engine::format_rfc3339(t);
  if (!text) throw std::runtime_error("rfc3339: the time is outside the years 0000 to 9999");
  lua_pushstring(L, text->c_str());
  return 1;
}

}  // namespace

void sleep_within_limits(lua_State* L, double seconds) {
  const auto until =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(std::min(seconds, kLongestSleep)));
  while (true) {
    if (auto why = limit_reached(L)) throw std::runtime_error(*why);
    const auto now = Clock::now();
    if (now >= until) return;
    std::this_thread::sleep_for(std::min<Clock::duration>(kSlice, until - now));
  }
}

int open_time_module(lua_State* L) {
  const luaL_Reg functions[] = {{"sleep", guarded<sleep>},
                                {"now", guarded<now>},
                                {"seconds", guarded<seconds>},
                                {"format", guarded<format>},
                                {"parse_rfc3339", guarded<parse_rfc3339>},
                                {"rfc3339", guarded<rfc3339>},
                                {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

}  // namespace luaform::lua
