#include "host/lua/modules/exec_module.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "host/engine/rules/secret_scope.h"
#include "host/engine/value/duration.h"
#include "host/engine/value/utf8.h"
#include "host/lua/core/duration_argument.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/option_fields.h"
#include "host/lua/core/sandbox.h"
#include "host/lua/modules/child_process.h"

namespace luaform::lua {
namespace {

// Output a run keeps at most unless max_output says otherwise (and the memory limit allows).
constexpr size_t kDefaultMaxOutput = size_t{64} << 20;
// How much of stderr (else stdout) an error for a failed exit quotes.
constexpr size_t kQuotedOutputLimit = 512;
// Where a program name is looked for when neither `env.PATH` nor the host's PATH says.
constexpr const char* kFallbackPath = "/usr/local/bin:/usr/bin:/bin";

const std::set<std::string>& known_options() {
  static const std::set<std::string> names{"stdin", "env",        "dir",   "timeout",
                                           "allow", "max_output", "shell", "secrets"};
  return names;
}

std::string joined_options() {
  std::string out;
  for (const std::string& name : known_options()) out += (out.empty() ? "" : ", ") + name;
  return out;
}

// A string or number as text (an argument, an environment value).
std::string text_at(lua_State* L, int index, const std::string& what) {
  if (lua_type(L, index) == LUA_TSTRING || lua_type(L, index) == LUA_TNUMBER) {
    size_t length = 0;
    lua_pushvalue(L, index);  // lua_tolstring converts numbers in place; convert a copy
    const char* text = lua_tolstring(L, -1, &length);
    std::string out(text, length);
    lua_pop(L, 1);
    if (out.find('\0') != std::string::npos) {
      throw std::runtime_error("exec: " + what +
                               " holds a zero byte, which no program can be given");
    }
    return out;
  }
  throw std::runtime_error("exec: " + what + " must be a string or number, not " +
                           luaL_typename(L, index));
}

// The program and its arguments: the array part 1..n, every one present.
std::vector<std::string> arguments_of(lua_State* L, int table) {
  lua_Integer last = 0;
  lua_pushnil(L);
  while (lua_next(L, table) != 0) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
      const std::string key = lua_tostring(L, -1);
      if (known_options().count(key) == 0) {
        throw std::runtime_error("exec: unknown option \"" + key +
                                 "\" (options: " + joined_options() + ")");
      }
    } else if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1) {
      last = std::max(last, lua_tointeger(L, -1));
    } else {
      throw std::runtime_error(std::string("exec: a key of the command must be an option name "
                                           "or an argument's position, not a ") +
                               luaL_typename(L, -1));
    }
  }
  std::vector<std::string> out;
  for (lua_Integer i = 1; i <= last; ++i) {
    lua_rawgeti(L, table, i);
    if (lua_isnil(L, -1)) {
      throw std::runtime_error("exec: argument " + std::to_string(i) + " of " +
                               std::to_string(last) + " is nil");
    }
    out.push_back(text_at(L, -1, i == 1 ? "the program" : "argument " + std::to_string(i)));
    lua_pop(L, 1);
  }
  if (out.empty()) throw std::runtime_error("exec: the command names no program");
  return out;
}

// env = { NAME = "value" | number | true }: the program's whole environment, sorted.
std::map<std::string, std::string> environment_of(lua_State* L, int table) {
  std::map<std::string, std::string> out;
  lua_getfield(L, table, "env");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return out;
  }
  if (!lua_istable(L, -1)) {
    throw std::runtime_error(std::string("exec: env must be a table of names to values, not ") +
                             luaL_typename(L, -1));
  }
  const int env = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, env) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING) {
      throw std::runtime_error("exec: env's keys must be variable names");
    }
    const std::string name = lua_tostring(L, -2);
    if (name.empty() || name.find('=') != std::string::npos ||
        name.find('\0') != std::string::npos) {
      throw std::runtime_error("exec: \"" + name + "\" is not an environment variable name");
    }
    if (lua_type(L, -1) == LUA_TBOOLEAN) {
      if (lua_toboolean(L, -1) == 0) {
        throw std::runtime_error("exec: env." + name +
                                 " = false: leave a variable out rather than set it to false");
      }
      // true: the host's own value, when it has one.
      if (const char* value = std::getenv(name.c_str())) out[name] = value;
    } else {
      out[name] = text_at(L, -1, "env." + name);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return out;
}

// The integers of an array option (allow), or the strings (secrets), checked.
std::vector<lua_Integer> integers_of(lua_State* L, int table, const char* name) {
  std::vector<lua_Integer> out;
  lua_getfield(L, table, name);
  if (!lua_isnil(L, -1)) {
    if (!lua_istable(L, -1)) {
      throw std::runtime_error(std::string("exec: ") + name + " must be a list of exit statuses");
    }
    const lua_Integer count = static_cast<lua_Integer>(lua_rawlen(L, -1));
    for (lua_Integer i = 1; i <= count; ++i) {
      lua_rawgeti(L, -1, i);
      if (!lua_isinteger(L, -1)) {
        throw std::runtime_error(std::string("exec: ") + name + "[" + std::to_string(i) +
                                 "] must be a whole number");
      }
      out.push_back(lua_tointeger(L, -1));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return out;
}

void add_secrets(lua_State* L, int table) {
  lua_getfield(L, table, "secrets");
  if (!lua_isnil(L, -1)) {
    if (!lua_istable(L, -1)) throw std::runtime_error("exec: secrets must be a list of strings");
    const lua_Integer count = static_cast<lua_Integer>(lua_rawlen(L, -1));
    for (lua_Integer i = 1; i <= count; ++i) {
      lua_rawgeti(L, -1, i);
      const std::string secret = text_at(L, -1, "secrets[" + std::to_string(i) + "]");
      if (!secret.empty()) engine::add_secret_in_scope(secret);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

std::string host_path() {
  const char* path = std::getenv("PATH");
  return path != nullptr && *path != '\0' ? path : kFallbackPath;
}

// The start of what the program said about its failure: stderr, else stdout.
std::string quoted_output(const process::Outcome& outcome) {
  std::string_view said = outcome.errors.find_first_not_of(" \t\r\n") != std::string::npos
                              ? outcome.errors
                              : outcome.output;
  while (!said.empty() && (said.back() == '\n' || said.back() == '\r' || said.back() == ' ')) {
    said.remove_suffix(1);
  }
  if (said.empty()) return "";
  return ": " + engine::utf8_excerpt(said, kQuotedOutputLimit, " [...]");
}

int run_program(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  // Secrets first: every error below may quote what they hide.
  add_secrets(L, 1);
  process::Command command;
  command.arguments = arguments_of(L, 1);
  const std::string program = command.arguments[0];

  lua_getfield(L, 1, "shell");
  const bool shell = lua_toboolean(L, -1) != 0;
  lua_pop(L, 1);
  if (shell) {
    if (command.arguments.size() != 1) {
      throw std::runtime_error(
          "exec: with shell = true the command is one string, which the "
          "shell reads; got " +
          std::to_string(command.arguments.size()) + " arguments");
    }
#if defined(_WIN32)
    command.arguments = {"cmd.exe", "/d", "/s", "/c", command.arguments[0]};
#else
    command.arguments = {"/bin/sh", "-c", command.arguments[0]};
#endif
  }

  const std::map<std::string, std::string> environment = environment_of(L, 1);
  for (const auto& [name, value] : environment) {
    std::string entry = name;
    entry += '=';
    entry += value;
    command.environment.push_back(std::move(entry));
  }
  const auto path = environment.find("PATH");
  command.search_path = path != environment.end() ? path->second : host_path();
  command.directory = string_field(L, 1, "dir", "exec").value_or("");
  command.input = string_field(L, 1, "stdin", "exec").value_or("");

  // Output is held here, then as the script's strings: twice what it takes of the memory limit.
  NativeMemory memory(L, "the output of " + program);
  command.max_output = std::min(kDefaultMaxOutput, memory.left() / 2);
  lua_getfield(L, 1, "max_output");
  if (!lua_isnil(L, -1)) {
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1) {
      throw std::runtime_error("exec: max_output must be a whole number of bytes");
    }
    command.max_output = std::min(command.max_output, static_cast<size_t>(lua_tointeger(L, -1)));
  }
  lua_pop(L, 1);

  process::Watch watch;
  watch.reason = [L] { return limit_reached(L); };
  lua_getfield(L, 1, "timeout");
  if (!lua_isnil(L, -1)) {
    const double seconds = duration_seconds(L, -1, "exec: timeout");
    const auto timeout = std::chrono::duration_cast<process::Clock::duration>(
        std::chrono::duration<double>(std::min(seconds, 86400.0)));
    watch.deadline = process::Clock::now() + timeout;
    watch.deadline_message =
        program + " did not finish within " +
        engine::format_duration(std::chrono::duration_cast<engine::Duration>(timeout)) +
        " (its timeout); it was ended with its children";
  }
  lua_pop(L, 1);
  const std::vector<lua_Integer> allowed = integers_of(L, 1, "allow");

  process::Outcome outcome;
  try {
    outcome = process::run(command, watch);
  } catch (const process::RunError& e) {
    // A stop or the operation's deadline is raised in its own words, as everywhere else.
    if (const std::optional<std::string> why = limit_reached(L); why && *why == e.what()) {
      throw std::runtime_error(*why);
    }
    throw std::runtime_error(std::string("exec: ") + e.what());
  }
  if (outcome.signal != 0) {
    throw std::runtime_error("exec: " + program + " was ended by signal " +
                             std::to_string(outcome.signal) + quoted_output(outcome));
  }
  if (outcome.status != 0 &&
      std::find(allowed.begin(), allowed.end(), outcome.status) == allowed.end()) {
    throw std::runtime_error("exec: " + program + " exited with status " +
                             std::to_string(outcome.status) + quoted_output(outcome));
  }
  memory.add(outcome.output.size() + outcome.errors.size());
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, outcome.status);
  lua_setfield(L, -2, "status");
  lua_pushlstring(L, outcome.output.data(), outcome.output.size());
  lua_setfield(L, -2, "stdout");
  lua_pushlstring(L, outcome.errors.data(), outcome.errors.size());
  lua_setfield(L, -2, "stderr");
  return 1;
}

int find_program(lua_State* L) {
  const std::string name = luaL_checkstring(L, 1);
  const std::string search_path = luaL_optstring(L, 2, host_path().c_str());
  if (const std::optional<std::string> found = process::find_program(name, search_path)) {
    lua_pushlstring(L, found->data(), found->size());
  } else {
    lua_pushnil(L);
  }
  return 1;
}

}  // namespace

int open_exec_module(lua_State* L) {
  const luaL_Reg functions[] = {
      {"run", guarded<run_program>}, {"find", guarded<find_program>}, {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

}  // namespace luaform::lua
