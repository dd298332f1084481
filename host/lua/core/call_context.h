// What native modules need to know about the call a state is running: which resource, its
// schema, where its sensitive values are (for tf.log), and the warnings and structured failure
// a script reported (tf.warn, tf.fail). Owned by the state's ScriptState, which keeps it up to
// date; it must outlive the state.
#pragma once

#include <lua.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"

namespace luaform::lua {

struct CallContext {
  // While an operation runs (cleared after it):
  std::string resource_type;
  const engine::Schema* schema = nullptr;
  std::vector<engine::Diagnostic> warnings;  // tf.warn
  // tf.fail: the diagnostic, and the message of the error it raised (so that the caller can
  // tell whether the error ending the call is that one, or one raised after catching it).
  std::optional<engine::Diagnostic> failure;
  std::string failure_message;
  // tf.fail { argument = N } in a provider-defined function: the argument at fault (from 1).
  std::optional<int64_t> failure_argument;
};

// Makes `context` the one the native modules of `L` use.
void set_call_context(lua_State* L, CallContext* context);
// The context of `L`, or nullptr when none was set.
CallContext* call_context_of(lua_State* L);

}  // namespace luaform::lua
