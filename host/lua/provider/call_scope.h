// What every kind of call into a provider's scripts shares (CRUD, plan hooks, listings,
// actions, functions, upgrades): whose definition runs an operation, how messages name the
// script, and the scopes that give a call its deadline and its context for as long as it runs.
// Internal to the script_*.cpp files of ScriptState.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "host/engine/rpc/provider_logic.h"
#include "host/lua/core/call_context.h"
#include "host/lua/core/sandbox.h"
#include "host/lua/core/script_error.h"

namespace luaform::lua {

// Whose definition runs operation `op`.
engine::SchemaOwner owner_of(engine::Operation op);
// "resource", "data source", ...: the owner as messages name it.
const char* owner_name(engine::SchemaOwner owner);
// `message` starting with the script's name, as Lua's own errors already do.
std::string prefixed(const std::string& display, const std::string& message);

// Sets the deadline of a call for its duration. A call made while another runs (a listed
// object's read) gives the outer call its own deadline back when it ends.
class DeadlineScope {
 public:
  DeadlineScope(RunLimits& limits, engine::Operation op, const engine::ResourceData& d);
  ~DeadlineScope();
  DeadlineScope(const DeadlineScope&) = delete;
  DeadlineScope& operator=(const DeadlineScope&) = delete;

 private:
  RunLimits& limits_;
  std::optional<std::chrono::steady_clock::time_point> outer_;
  std::string outer_message_;
};

// Tells the native modules, for the duration of a call, which resource it is about, where the
// sensitive values tf.log must hide are, and collects what tf.warn and tf.fail report. A call
// made while another runs (a listed object's import and read) gives the outer call its context
// back when it ends.
class CallScope {
 public:
  CallScope(CallContext& context, const std::string& type_name, const engine::ResourceData& d);
  // A call without a ResourceData (a provider-defined function, a listing, an action): no
  // schema, no secrets of its own.
  CallScope(CallContext& context, const std::string& name);
  ~CallScope();
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

  // The call's warnings, and its error: the structured one of tf.fail when that is what ended
  // it, else the error `message`; either says where it was raised.
  engine::Diagnostics report(const std::optional<std::string>& message,
                             const FailedCall& call) const;

 private:
  CallContext& context_;
  CallContext outer_;  // the per-call part of what the context held before this call
};

}  // namespace luaform::lua
