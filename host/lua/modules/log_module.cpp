#include "host/lua/modules/log_module.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "host/engine/rules/secret_scope.h"
#include "host/engine/rules/secrets.h"
#include "host/lua/core/call_context.h"
#include "host/lua/core/guarded.h"
#include "host/platform/platform.h"

namespace luaform::lua {
namespace {

enum class Level { Trace = 0, Debug, Info, Warn, Error, Off };

constexpr const char* kLevelNames[] = {"trace", "debug", "info", "warn", "error"};

Level level_named(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (name.empty() || name == "off") return Level::Off;
  for (int i = 0; i < 5; ++i) {
    if (name == kLevelNames[i]) return static_cast<Level>(i);
  }
  if (name == "warning") return Level::Warn;
  return Level::Trace;  // JSON, and any other value: everything, as the CLI does for TF_LOG
}

// Read once: the CLI starts the provider with its environment and does not change it.
Level threshold() {
  static const Level level = [] {
    if (const char* provider = std::getenv("TF_LOG_PROVIDER"); provider && *provider) {
      return level_named(provider);
    }
    const char* all = std::getenv("TF_LOG");
    return level_named(all ? all : "");
  }();
  return level;
}

std::string timestamp() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() %
      1'000'000;
  const std::tm utc = platform::utc_time(seconds);
  char text[40];
  const size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  std::snprintf(text + n, sizeof text - n, ".%06lldZ", static_cast<long long>(micros));
  return text;
}

// A field's value: scalars as JSON scalars, anything else as its text (tostring), so that a
// table or a function never stops a log line.
nlohmann::json field_value(lua_State* L, int index, const std::vector<std::string>& secrets) {
  switch (lua_type(L, index)) {
    case LUA_TBOOLEAN:
      return lua_toboolean(L, index) != 0;
    case LUA_TNUMBER:
      if (lua_isinteger(L, index)) {
        // A sensitive number is hidden like any other secret: compare its text.
        const std::string text = std::to_string(lua_tointeger(L, index));
        if (engine::redact(text, secrets) != text) return "***";
        return static_cast<int64_t>(lua_tointeger(L, index));
      }
      break;
    default:
      break;
  }
  size_t length = 0;
  const char* text = luaL_tolstring(L, index, &length);
  std::string value = engine::redact(std::string(text, length), secrets);
  lua_pop(L, 1);
  return value;
}

template <Level L_>
int log_at(lua_State* L) {
  size_t length = 0;
  const char* message = luaL_checklstring(L, 1, &length);
  if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TTABLE);
  if (L_ < threshold()) return 0;

  const std::vector<std::string> secrets = engine::secrets_in_scope();
  std::string resource_type;
  if (const CallContext* context = call_context_of(L)) resource_type = context->resource_type;

  nlohmann::json line = nlohmann::json::object();
  if (lua_istable(L, 2)) {
    lua_pushnil(L);
    while (lua_next(L, 2) != 0) {
      // A field's name hides secrets too: a script may key a field by a value.
      if (lua_type(L, -2) == LUA_TSTRING) {
        line[engine::redact(lua_tostring(L, -2), secrets)] = field_value(L, -1, secrets);
      }
      lua_pop(L, 1);
    }
  }
  if (!resource_type.empty()) line["tf_resource_type"] = resource_type;
  line["@level"] = kLevelNames[static_cast<int>(L_)];
  line["@message"] = engine::redact(std::string(message, length), secrets);
  line["@module"] = "provider";
  line["@timestamp"] = timestamp();
  const std::string text =
      line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";

  // One write per line, so that lines from states on other threads never interleave.
  static std::mutex stderr_mutex;
  const std::lock_guard<std::mutex> lock(stderr_mutex);
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
  return 0;
}

}  // namespace

int open_log_module(lua_State* L) {
  const luaL_Reg functions[] = {
      {"trace", guarded<log_at<Level::Trace>>}, {"debug", guarded<log_at<Level::Debug>>},
      {"info", guarded<log_at<Level::Info>>},   {"warn", guarded<log_at<Level::Warn>>},
      {"error", guarded<log_at<Level::Error>>}, {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

}  // namespace luaform::lua
