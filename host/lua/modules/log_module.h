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
// message and the fields before the line is written (see CallContext, call_context.h).
#pragma once

#include <lua.hpp>

#include <string>
#include <vector>

namespace luaform::lua {

// Installed in package.preload as a C function, so the sandbox's no-C-loaders rule holds.
int open_log_module(lua_State* L);

}  // namespace luaform::lua
