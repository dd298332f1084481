#include "host/lua/modules/diagnostics_module.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "host/engine/schema/schema_rules.h"
#include "host/lua/core/call_context.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/option_fields.h"
#include "host/lua/core/script_where.h"

namespace luaform::lua {
namespace {

// Reads fail's or warn's argument: a message, or a table of summary, detail and path.
engine::Diagnostic read_diagnostic(lua_State* L, engine::Severity severity, const char* what) {
  engine::Diagnostic d;
  d.severity = severity;
  if (lua_type(L, 1) == LUA_TSTRING) {
    d.detail = lua_tostring(L, 1);
    return d;
  }
  if (!lua_istable(L, 1)) {
    throw std::runtime_error(std::string(what) +
                             " expects a message or a table { summary =, detail =, path = }");
  }
  d.summary = string_field(L, 1, "summary", "").value_or("");
  d.detail = string_field(L, 1, "detail", "").value_or("");
  if (d.summary.empty() && d.detail.empty()) {
    throw std::runtime_error(std::string(what) + " needs a summary or a detail");
  }
  const std::string address = string_field(L, 1, "path", "").value_or("");
  const CallContext* context = call_context_of(L);
  if (!address.empty() && context != nullptr && context->schema != nullptr) {
    d.path = engine::attribute_path(context->schema->block.implied_type(), address);
  }
  return d;
}

// tf.fail { argument = N }: which argument of a provider-defined function is at fault.
std::optional<int64_t> failing_argument(lua_State* L) {
  if (!lua_istable(L, 1)) return std::nullopt;
  std::optional<int64_t> argument;
  const int type = lua_getfield(L, 1, "argument");
  if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1) {
    argument = lua_tointeger(L, -1);
  } else if (type != LUA_TNIL) {
    lua_pop(L, 1);
    throw std::runtime_error("argument must be the position of an argument, counting from 1");
  }
  lua_pop(L, 1);
  return argument;
}

int fail(lua_State* L) {
  engine::Diagnostic d = read_diagnostic(L, engine::Severity::Error, "tf.fail");
  const std::optional<int64_t> argument = failing_argument(L);
  // The message names the line, as every error does; the diagnostic keeps the author's words,
  // and the call that reports it adds where it was raised to the detail.
  std::string message = script_where(L) + (d.detail.empty() ? d.summary : d.detail);
  if (CallContext* context = call_context_of(L)) {
    context->failure = d;
    context->failure_message = message;
    context->failure_argument = argument;
  }
  lua_pushlstring(L, message.data(), message.size());
  return lua_error(L);
}

int warn(lua_State* L) {
  engine::Diagnostic d = read_diagnostic(L, engine::Severity::Warning, "tf.warn");
  if (d.summary.empty()) {
    d.summary = d.detail;
    d.detail.clear();
  }
  if (CallContext* context = call_context_of(L)) context->warnings.push_back(std::move(d));
  return 0;
}

// declared_at(level): "file.lua:12", the place of the function `level` levels up the stack
// (1: the function calling declared_at), or nil there is none with a line. The SDK records it in
// each declaration, so that the schema's rules report their problems at the author's line; a
// native function, because scripts have no debug library and this runs once per declaration.
int declared_at(lua_State* L) {
  const auto level = static_cast<int>(luaL_optinteger(L, 1, 1));
  lua_Debug frame;
  if (level < 0 || lua_getstack(L, level, &frame) == 0 || lua_getinfo(L, "Sl", &frame) == 0 ||
      frame.currentline <= 0) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushfstring(L, "%s:%d", frame.short_src, frame.currentline);
  return 1;
}

}  // namespace

int open_diagnostics_module(lua_State* L) {
  const luaL_Reg functions[] = {{"fail", guarded<fail>},
                                {"warn", guarded<warn>},
                                {"declared_at", guarded<declared_at>},
                                {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

}  // namespace luaform::lua
