#include "host/lua/provider/invocation.h"

#include <stdexcept>
#include <utility>

#include "host/lua/core/script_where.h"

namespace luaform::lua {
namespace {

// The per-call part of `context` (empty for none running), moved out and left cleared.
CallContext take(CallContext& context) {
  CallContext outer;
  outer.resource_type = std::exchange(context.resource_type, {});
  outer.schema = std::exchange(context.schema, nullptr);
  outer.warnings = std::exchange(context.warnings, {});
  outer.failure = std::exchange(context.failure, std::nullopt);
  outer.failure_message = std::exchange(context.failure_message, {});
  outer.failure_argument = std::exchange(context.failure_argument, std::nullopt);
  return outer;
}

// The block of a lent function's userdata: the target while the call runs, then null.
struct LentBlock {
  void* target;
  LentCall call;
  const char* name;  // a string literal of the lender's
};

// A lent function: upvalue 1 is its block.
int call_lent(lua_State* L) {
  auto* block = static_cast<LentBlock*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (block->target == nullptr) {
    throw std::runtime_error(std::string(block->name) +
                             " is no longer usable: the call it was passed to has returned (keep "
                             "what it gives, not the function itself)");
  }
  return block->call(L, block->target);
}

// The message handler of every call: an error that names no place of a script (an error
// object, error("...", 0), a message of the host's own) is noted with the script line that
// raised it. Upvalue 1: where to note it.
int note_where_raised(lua_State* L) {
  auto* raised_at = static_cast<std::string*>(lua_touserdata(L, lua_upvalueindex(1)));
  const bool has_place =
      lua_type(L, 1) == LUA_TSTRING && !split_script_error(lua_tostring(L, 1)).locations.empty();
  if (!has_place) *raised_at = script_where(L);
  lua_settop(L, 1);
  return 1;
}

}  // namespace

engine::SchemaOwner owner_of(engine::Operation op) {
  switch (op) {
    case engine::Operation::ReadData:
      return engine::SchemaOwner::DataSource;
    case engine::Operation::Open:
    case engine::Operation::Renew:
    case engine::Operation::Close:
      return engine::SchemaOwner::EphemeralResource;
    default:
      return engine::SchemaOwner::Resource;
  }
}

const char* owner_name(engine::SchemaOwner owner) {
  switch (owner) {
    case engine::SchemaOwner::Provider:
      return "provider";
    case engine::SchemaOwner::Resource:
      return "resource";
    case engine::SchemaOwner::DataSource:
      return "data source";
    case engine::SchemaOwner::EphemeralResource:
      return "ephemeral resource";
    case engine::SchemaOwner::ListResource:
      return "list resource";
    case engine::SchemaOwner::Action:
      return "action";
    case engine::SchemaOwner::StateStore:
      return "state store";
  }
  return "definition";
}

std::string prefixed(const std::string& display, const std::string& message) {
  return message.starts_with(display + ":") ? message : display + ": " + message;
}

Invocation::Invocation(lua_State* L, CallContext& context, RunLimits& limits, CallSubject subject,
                       std::optional<CallDeadline> deadline)
    : L_(L),
      context_(context),
      limits_(limits),
      outer_(take(context)),
      outer_deadline_(limits.deadline),
      outer_deadline_message_(limits.deadline_message) {
  context_.resource_type = std::move(subject.name);
  context_.schema = subject.schema;
  if (deadline) {
    limits_.deadline = std::chrono::steady_clock::now() + deadline->limit;
    limits_.deadline_message = deadline->what + " did not finish within its timeout of " +
                               engine::format_duration(deadline->limit) + deadline->set_by;
  }
}

Invocation::~Invocation() {
  for (const Lent& lent : lent_) {
    *lent.slot = nullptr;
    luaL_unref(L_, LUA_REGISTRYINDEX, lent.ref);
  }
  limits_.deadline = outer_deadline_;
  limits_.deadline_message = std::move(outer_deadline_message_);
  context_.resource_type = std::move(outer_.resource_type);
  context_.schema = outer_.schema;
  context_.warnings = std::move(outer_.warnings);
  context_.failure = std::move(outer_.failure);
  context_.failure_message = std::move(outer_.failure_message);
  context_.failure_argument = outer_.failure_argument;
}

std::optional<std::string> Invocation::run(const Body& body) {
  raised_at_.clear();
  lua_pushlightuserdata(L_, &raised_at_);
  lua_pushcclosure(L_, note_where_raised, 1);
  const int handler = lua_gettop(L_);
  auto failure = protected_run(L_, body, 0, handler);
  lua_settop(L_, handler - 1);
  return failure;
}

void Invocation::expire_at_end(lua_State* S, void** slot) {
  lua_pushvalue(S, -1);
  const int ref = luaL_ref(S, LUA_REGISTRYINDEX);
  lent_.push_back({slot, ref});
}

void Invocation::lend(lua_State* S, const char* name, LentCall call, void* target) {
  auto* block = static_cast<LentBlock*>(lua_newuserdatauv(S, sizeof(LentBlock), 0));
  *block = {target, call, name};
  expire_at_end(S, &block->target);
  lua_pushcclosure(S, guarded<call_lent>, 1);
}

engine::Diagnostics Invocation::report(const std::optional<std::string>& error,
                                       const FailedCall& call,
                                       const engine::AttributePath& path) const {
  engine::Diagnostics diags;
  for (const auto& warning : context_.warnings) diags.add(warning);
  if (!error) return diags;
  if (const engine::Diagnostic* made = failure_made(*error)) {
    engine::Diagnostic placed = with_place(*made, *error, call);
    if (placed.path.empty()) placed.path = path;
    diags.add(std::move(placed));
  } else {
    diags.add(script_error_diagnostic(placed(*error), call, path));
  }
  return diags;
}

const engine::Diagnostic* Invocation::failure_made(const std::string& error) const {
  if (context_.failure && context_.failure_message == error) return &*context_.failure;
  return nullptr;
}

}  // namespace luaform::lua
