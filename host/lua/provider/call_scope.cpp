#include "host/lua/provider/call_scope.h"

#include <utility>

#include "host/engine/value/duration.h"

namespace luaform::lua {
namespace {

// The timeout that bounds `op` (create, read, update, delete; a data source's read), or nullopt
// for calls that have none.
std::optional<engine::Duration> timeout_of(engine::Operation op, const engine::ResourceData& d) {
  switch (op) {
    case engine::Operation::Create:
    case engine::Operation::Read:
    case engine::Operation::Update:
    case engine::Operation::Delete:
    case engine::Operation::ReadData:
      return d.timeout(engine::operation_name(op));
    default:
      return std::nullopt;
  }
}

// The per-call part of `context` (empty for none running), moved out and left cleared.
CallContext take(CallContext& context) {
  CallContext outer;
  outer.resource_type = std::move(context.resource_type);
  outer.schema = std::exchange(context.schema, nullptr);
  outer.operation_secrets = std::exchange(context.operation_secrets, nullptr);
  outer.warnings = std::exchange(context.warnings, {});
  outer.failure = std::exchange(context.failure, std::nullopt);
  outer.failure_message = std::exchange(context.failure_message, {});
  outer.failure_argument = std::exchange(context.failure_argument, std::nullopt);
  context.resource_type.clear();
  return outer;
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
  }
  return "definition";
}

std::string prefixed(const std::string& display, const std::string& message) {
  return message.starts_with(display + ":") ? message : display + ": " + message;
}

DeadlineScope::DeadlineScope(RunLimits& limits, engine::Operation op, const engine::ResourceData& d)
    : limits_(limits), outer_(limits.deadline), outer_message_(limits.deadline_message) {
  if (auto timeout = timeout_of(op, d)) {
    limits_.deadline = std::chrono::steady_clock::now() + *timeout;
    limits_.deadline_message = std::string(engine::operation_name(op)) +
                               " did not finish within its timeout of " +
                               engine::format_duration(*timeout);
  }
}

DeadlineScope::~DeadlineScope() {
  limits_.deadline = outer_;
  limits_.deadline_message = std::move(outer_message_);
}

CallScope::CallScope(CallContext& context, const std::string& type_name,
                     const engine::ResourceData& d)
    : context_(context), outer_(take(context)) {
  context_.resource_type = type_name;
  context_.schema = &d.schema();
  context_.operation_secrets = [&d] { return d.sensitive_texts(); };
}

CallScope::CallScope(CallContext& context, const std::string& name)
    : context_(context), outer_(take(context)) {
  context_.resource_type = name;
}

CallScope::~CallScope() {
  context_.resource_type = std::move(outer_.resource_type);
  context_.schema = outer_.schema;
  context_.operation_secrets = std::move(outer_.operation_secrets);
  context_.warnings = std::move(outer_.warnings);
  context_.failure = std::move(outer_.failure);
  context_.failure_message = std::move(outer_.failure_message);
  context_.failure_argument = outer_.failure_argument;
}

engine::Diagnostics CallScope::report(const std::optional<std::string>& message,
                                      const FailedCall& call) const {
  engine::Diagnostics diags;
  for (const auto& warning : context_.warnings) diags.add(warning);
  if (message) {
    if (context_.failure && context_.failure_message == *message) {
      diags.add(with_place(*context_.failure, *message, call));
    } else {
      diags.add(script_error_diagnostic(*message, call));
    }
  }
  return diags;
}

}  // namespace luaform::lua
