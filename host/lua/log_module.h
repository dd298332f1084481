// The module `require("luaform_log")` returns (also `tf.log`): log lines from scripts that
// reach the CLI's log the way terraform-plugin-log's do. Each is one hclog JSON line on stderr
// ({"@level", "@message", "@module": "provider", "@timestamp", fields...}), which go-plugin in
// the CLI reads and files under the provider at that level (TF_LOG / TF_LOG_PATH).
//
//   trace/debug/info/warn/error(message, fields)   fields: a table of name = value
//
// The level comes from TF_LOG_PROVIDER, else TF_LOG (TRACE, DEBUG, INFO, WARN, ERROR, OFF;
// JSON means TRACE); with neither set nothing is written. Every sensitive value (of the
// provider configuration and of the resource being worked on) is replaced by "***" in the
// message and the fields before the line is written.
#pragma once

#include <lua.hpp>

#include <functional>
#include <string>
#include <vector>

namespace luaform::lua {

// What a state's log lines must hide, and what they say they are about. Owned by the state's
// ScriptState, which keeps it up to date; it must outlive the state.
struct LogContext {
  std::vector<std::string> provider_secrets;  // set by configure
  // While an operation runs: the sensitive texts it can see (asked per line, so that a value
  // the script has just set is hidden too), and the resource type.
  std::function<std::vector<std::string>()> operation_secrets;
  std::string resource_type;
};

// Makes `context` the one the log module of `L` uses.
void set_log_context(lua_State* L, LogContext* context);

// `text` with every occurrence of each secret replaced by "***", longest secrets first.
std::string redact(std::string text, std::vector<std::string> secrets);

// Installed in package.preload as a C function, so the sandbox's no-C-loaders rule holds.
int open_log_module(lua_State* L);

}  // namespace luaform::lua
