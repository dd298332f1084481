// The one way from C++ into a provider's scripts. Every hook of every kind (configure, CRUD,
// validators, diff_suppress, plan functions, listings, actions, functions, upgrades, moves)
// runs through an Invocation, which does once what each of them needs:
//   - opens the call context, so that tf.warn, tf.fail (with its path), tf.log with the call's
//     secrets hidden, and the schema for paths work in every hook;
//   - sets the call's deadline: every call has one (see HookLimits), ended at the script's line
//     by the sandbox's count hook;
//   - lends the script what it may use during the call only (`d`, a listing's `emit`, an
//     action's `progress`): once the call has returned, using them is an error at the line that
//     tries, never a touch of memory that is gone;
//   - runs the body protected, with one message handler that notes where a script raised an
//     error that names no place of its own;
//   - reports the call's warnings and its error one way.
// A call made while another runs (a listed object's import and read) gives the outer call its
// context and deadline back when it ends.
// Internal to the script_*.cpp files of ScriptState.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "host/engine/rpc/provider_logic.h"
#include "host/engine/value/duration.h"
#include "host/lua/core/call_context.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"
#include "host/lua/core/script_error.h"

namespace luaform::lua {

// Whose definition runs operation `op`.
engine::SchemaOwner owner_of(engine::Operation op);
// "resource", "data source", ...: the owner as messages name it.
const char* owner_name(engine::SchemaOwner owner);
// `message` starting with the script's name, as Lua's own errors already do.
std::string prefixed(const std::string& display, const std::string& message);

// The time limits of the calls that have no `timeouts` of their own, by kind; a provider sets
// its own in provider.lua (tf.provider { hook_timeouts = { check = "30s" } }), documented in
// lua-sdk/README.md, "Time limits".
struct HookLimits {
  // validate, diff_suppress, state_func, element_state_func and provider-defined functions:
  // checks of values that need no API.
  engine::Duration check = std::chrono::seconds(10);
  // plan functions, requires_replace_if, customize_diff, plan_destroy and an action's plan:
  // plan-time hooks, which may ask the API.
  engine::Duration plan = std::chrono::minutes(1);
  // configure, import, upgrade, move_state and an ephemeral resource's open, renew and close.
  engine::Duration hook = std::chrono::minutes(5);
  // A listing's and an action's invoke, unless their definition says `timeout`.
  engine::Duration run = std::chrono::minutes(20);
};

// What a call is about, for the context the native modules see.
struct CallSubject {
  std::string name;  // the resource type, function or action name; "" for the provider
  const engine::Schema* schema = nullptr;  // where tf.fail's paths point
};

// How long a call may run, and what it is called when it runs longer: "validate" reads "validate
// did not finish within 10s".
struct CallDeadline {
  std::string what;
  engine::Duration limit;
  // " (tf.provider's hook_timeouts.check sets it)": where the author changes the limit.
  std::string set_by = {};
};

// A function lent to a script for one call: `call` receives the target the lender named.
using LentCall = int (*)(lua_State* L, void* target);

class Invocation {
 public:
  Invocation(lua_State* L, CallContext& context, RunLimits& limits, CallSubject subject,
             std::optional<CallDeadline> deadline);
  ~Invocation();
  Invocation(const Invocation&) = delete;
  Invocation& operator=(const Invocation&) = delete;

  // Runs `body` protected. Returns the error message that ended it (a Lua error, a C++
  // exception, a stop or the deadline), nullopt when it completed. The body pushes the script's
  // function and its arguments and calls it with lua_call.
  std::optional<std::string> run(const Body& body);

  // Pushes a function named `name` for the script that runs `call` on `target` until this
  // invocation ends, and from then on raises "NAME is no longer usable: ...". Inside run only.
  void lend(lua_State* S, const char* name, LentCall call, void* target);
  // Keeps the userdata on top of the stack, whose block holds the lent pointer `*slot`, alive
  // for the rest of the call, and clears `*slot` when the call ends (how `d` is lent).
  void expire_at_end(lua_State* S, void** slot);

  // The call's warnings (tf.warn), and its error when `error` is set: tf.fail's diagnostic when
  // that is what ended it, else the error message; either says where it was raised.
  engine::Diagnostics report(const std::optional<std::string>& error, const FailedCall& call,
                             const engine::AttributePath& path = {}) const;

  // tf.fail's diagnostic when `error` is the one it raised (a provider-defined function makes
  // its failure of it), else null.
  const engine::Diagnostic* failure_made(const std::string& error) const;
  const CallContext& context() const { return context_; }
  // `error` with the script line the message handler noted, when it names no place itself.
  std::string placed(const std::string& error) const { return raised_at_ + error; }

 private:
  lua_State* L_;
  CallContext& context_;
  RunLimits& limits_;
  CallContext outer_;  // the per-call part of what the context held before this call
  std::optional<std::chrono::steady_clock::time_point> outer_deadline_;
  std::string outer_deadline_message_;
  struct Lent {
    void** slot;  // inside a userdata block, which Lua never moves
    int ref;      // the registry's reference that keeps the block alive until the call ends
  };
  std::vector<Lent> lent_;
  std::string raised_at_;  // where the message handler saw an error with no place raised
};

}  // namespace luaform::lua
