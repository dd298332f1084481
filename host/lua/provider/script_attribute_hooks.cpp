// ScriptState's hooks of one attribute, called while validating and planning: validate,
// diff_suppress / state_func, element_state_func, plan functions and requires_replace_if.
#include <cstring>
#include <optional>
#include <stdexcept>

#include "host/lua/provider/script_state.h"

#include "host/engine/value/value_walk.h"
#include "host/lua/core/frozen_tables.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/value_conversion.h"

namespace luaform::lua {

namespace {

// Pushes the attribute spec of `definition` (on top of the stack, replaced) at `path`:
// definition.schema.disk.schema.size for the path disk[0].size.
void replace_with_attribute_spec(lua_State* S, const engine::AttributePath& path) {
  for (const auto& step : path) {
    const auto* name = std::get_if<engine::AttributeName>(&step);
    if (!name) continue;  // an element of a block: the same schema for every element
    if (lua_getfield(S, -1, "schema") != LUA_TTABLE ||
        lua_getfield(S, -1, name->name.c_str()) != LUA_TTABLE) {
      throw std::runtime_error("the schema has no attribute " + engine::path_to_string(path));
    }
    lua_replace(S, -3);
    lua_pop(S, 1);
  }
}

// What the request `p` of a hook of the attribute at `path` holds: the attribute's own values
// (null ones are left out), the object holding it (none: the holder is the resource itself)
// and the whole resource, as the step has them.
struct Request {
  const engine::AttributePath& path;
  engine::Value config, state, planned;
  std::optional<engine::Value> object;
  const engine::Value& resource;
};

// Which of the attribute's own values the request of a hook holds besides `config` and `state`:
// a plan hook's resource is the plan, so it holds the planned value too.
enum class Step { Validate, Compare, Plan };

// The request of a hook judged in the whole objects `around` (validators, comparisons,
// requires_replace_if).
Request request_in(const engine::AttributePath& path, const engine::HookObjects& around,
                   Step step) {
  Request request{
      path,
      engine::value_at_path(around.config, path),
      engine::value_at_path(around.prior, path),
      step == Step::Plan ? engine::value_at_path(around.resource, path) : engine::Value(),
      std::nullopt,
      around.resource};
  if (path.size() > 1) {
    const engine::AttributePath holder(path.begin(), path.end() - 1);
    request.object = engine::value_at_path(around.resource, holder);
  }
  return request;
}

// The request of a plan function, which the planner gives the objects holding the attribute
// (paired by index or key with the prior and configured ones).
Request request_at(const engine::PlanContext& at) {
  const engine::AttributePath own(at.path.end() - 1, at.path.end());
  Request request{at.path,
                  engine::value_at_path(at.config, own),
                  engine::value_at_path(at.prior, own),
                  engine::value_at_path(at.planned, own),
                  std::nullopt,
                  at.resource};
  if (&at.resource != &at.planned) request.object = at.planned;
  return request;
}

void set_value_field(lua_State* S, const engine::Value& value, const char* name) {
  if (value.is_null()) return;
  push_value(S, value, Unknowns::Marked);
  lua_setfield(S, -2, name);
}

// p's __index: `object` and `resource` are converted when the hook first reads them (most hooks
// never do, and a resource may be large), and kept in `p`. Upvalue 1: the block that holds the
// Request while the call runs, null after.
int read_request_part(lua_State* L) {
  const auto* request =
      static_cast<const Request*>(*static_cast<void**>(lua_touserdata(L, lua_upvalueindex(1))));
  const char* key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";
  const bool object = std::strcmp(key, "object") == 0;
  if (!object && std::strcmp(key, "resource") != 0) return 0;
  if (request == nullptr) {
    throw std::runtime_error(std::string("p.") + key +
                             " is no longer readable: the hook p was passed to has returned "
                             "(read what you need of it during the call)");
  }
  if (!object || !request->object) {
    push_value(L, request->resource, Unknowns::Marked);
    if (!request->object) {  // the object is the resource: converted once, seen twice
      lua_pushvalue(L, -1);
      lua_setfield(L, 1, "object");
    }
    lua_setfield(L, 1, "resource");
  }
  if (object && request->object) {
    push_value(L, *request->object, Unknowns::Marked);
    lua_setfield(L, 1, "object");
  }
  lua_rawget(L, 1);
  return 1;
}

// Pushes the request `p` every hook of the attribute gets (see ScriptState::validate). The
// Request is read until `call` ends, so it must be made before `call` (it then outlives it).
void push_request(lua_State* S, const Request& request, Invocation& call) {
  lua_createtable(S, 0, 6);
  const std::string address = engine::path_to_address(request.path);
  lua_pushlstring(S, address.data(), address.size());
  lua_setfield(S, -2, "path");
  set_value_field(S, request.config, "config");
  set_value_field(S, request.state, "state");
  set_value_field(S, request.planned, "planned");
  lua_createtable(S, 0, 2);
  auto* block = static_cast<void**>(lua_newuserdatauv(S, sizeof(void*), 0));
  *block = const_cast<Request*>(&request);
  call.expire_at_end(S, block);
  lua_pushcclosure(S, guarded<read_request_part>, 1);
  lua_setfield(S, -2, "__index");
  seal_metatable(S, -1, "request");
  lua_setmetatable(S, -2);
}

}  // namespace

engine::Diagnostics ScriptState::validate(engine::SchemaOwner owner, const std::string& type_name,
                                          const engine::AttributePath& path,
                                          const engine::Value& value,
                                          const engine::HookObjects& around) {
  engine::Diagnostics diags;
  const Found found = find(owner, type_name);
  const Definition* definition = found.definition;
  if (!definition) return diags;
  const std::string where = engine::path_to_address(path);
  std::vector<std::string> messages;
  const Request lent = request_in(path, around, Step::Validate);
  auto call = invocation({type_name, found.schema},
                         deadline(HookKind::Check, "validate of \"" + where + "\""));
  auto failure = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    lua_getfield(S, -1, "validate");
    const int validators = lua_gettop(S);
    push_request(S, lent, call);
    const int request = lua_gettop(S);
    const bool single = lua_isfunction(S, validators);
    const lua_Integer n = single ? 1 : static_cast<lua_Integer>(lua_rawlen(S, validators));
    for (lua_Integer i = 1; i <= n; ++i) {
      if (single) {
        lua_pushvalue(S, validators);
      } else {
        lua_rawgeti(S, validators, i);
      }
      push_value(S, value);
      lua_pushlstring(S, where.data(), where.size());
      lua_pushvalue(S, request);
      lua_call(S, 3, 1);
      if (lua_type(S, -1) == LUA_TSTRING) {
        messages.emplace_back(lua_tostring(S, -1));
      } else if (!lua_isnil(S, -1)) {
        messages.emplace_back(std::string("a validator returned a ") + luaL_typename(S, -1) +
                              " instead of nil or a message");
      }
      lua_pop(S, 1);
    }
  });
  for (const auto& message : messages) diags.error(message, {}, path);
  diags.append(
      call.report(failure, {"Validation of \"" + where + "\" failed", definition->display}, path));
  return diags;
}

bool ScriptState::same_value(const std::string& type_name, const engine::AttributePath& path,
                             const engine::Value& earlier, const engine::Value& later,
                             const engine::HookObjects& around, engine::Diagnostics& diags) {
  const Found found = find(engine::SchemaOwner::Resource, type_name);
  const Definition* definition = found.definition;
  if (!definition) return false;
  bool same = false;
  const Request lent = request_in(path, around, Step::Compare);
  auto call = invocation(
      {type_name, found.schema},
      deadline(HookKind::Check, "the comparison of \"" + engine::path_to_string(path) + "\""));
  auto failure = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    const int spec = lua_gettop(S);
    push_request(S, lent, call);
    const int request = lua_gettop(S);
    // diff_suppress(address, old, new, p) -> true when the two are the same value.
    if (lua_getfield(S, spec, "diff_suppress") == LUA_TFUNCTION) {
      const std::string address = engine::path_to_address(path);
      lua_pushlstring(S, address.data(), address.size());
      push_value(S, earlier);
      push_value(S, later);
      lua_pushvalue(S, request);
      lua_call(S, 4, 1);
      same = lua_toboolean(S, -1) != 0;
    }
    lua_pop(S, 1);
    // state_func(value, p) -> the normal form; equal normal forms are the same value.
    if (!same && lua_getfield(S, spec, "state_func") == LUA_TFUNCTION) {
      lua_pushvalue(S, -1);
      push_value(S, earlier);
      lua_pushvalue(S, request);
      lua_call(S, 2, 1);
      lua_insert(S, -2);
      push_value(S, later);
      lua_pushvalue(S, request);
      lua_call(S, 2, 1);
      same = lua_compare(S, -1, -2, LUA_OPEQ) != 0;
    }
  });
  diags.append(call.report(failure,
                           {"Comparing values of \"" + engine::path_to_string(path) + "\" failed",
                            definition->display, "the values count as different"},
                           path));
  return !failure && same;
}

std::optional<engine::Value::List> ScriptState::normal_forms(const std::string& type_name,
                                                             const engine::AttributePath& path,
                                                             const engine::Value::List& elements,
                                                             const engine::HookObjects& around,
                                                             engine::Diagnostics& diags) {
  const Found found = find(engine::SchemaOwner::Resource, type_name);
  const Definition* definition = found.definition;
  if (!definition) return std::nullopt;
  engine::Value::List forms;
  forms.reserve(elements.size());
  const Request lent = request_in(path, around, Step::Compare);
  auto call = invocation(
      {type_name, found.schema},
      deadline(HookKind::Check, "element_state_func of \"" + engine::path_to_string(path) + "\""));
  auto failure = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    if (lua_getfield(S, -1, "element_state_func") != LUA_TFUNCTION) {
      throw std::runtime_error("the schema has no element_state_func at " +
                               engine::path_to_string(path));
    }
    const int normaliser = lua_gettop(S);
    push_request(S, lent, call);
    const int request = lua_gettop(S);
    for (const engine::Value& element : elements) {
      lua_pushvalue(S, normaliser);
      push_value(S, element);
      lua_pushvalue(S, request);
      lua_call(S, 2, 1);
      // Compared as state_func's forms are: a string, a number or a boolean.
      switch (lua_type(S, -1)) {
        case LUA_TSTRING: {
          size_t length = 0;
          const char* text = lua_tolstring(S, -1, &length);
          forms.push_back(engine::Value::string(std::string(text, length)));
          break;
        }
        case LUA_TNUMBER:
          forms.push_back(to_value(S, -1, engine::Type::number(), "element_state_func"));
          break;
        case LUA_TBOOLEAN:
          forms.push_back(engine::Value::boolean(lua_toboolean(S, -1) != 0));
          break;
        default: {
          // The error stands at the function's own line: it has returned, so no line of it
          // is running.
          lua_Debug where;
          lua_pushvalue(S, normaliser);
          lua_getinfo(S, ">S", &where);
          const bool nothing = lua_isnil(S, -1);
          throw std::runtime_error(
              std::string(where.short_src) + ":" + std::to_string(where.linedefined) +
              ": element_state_func returned " +
              (nothing ? std::string("nothing") : std::string("a ") + luaL_typename(S, -1)) +
              "; return the element's normal form as a string, number "
              "or boolean");
        }
      }
      lua_pop(S, 1);
    }
  });
  diags.append(
      call.report(failure,
                  {"Normalising the elements of \"" + engine::path_to_string(path) + "\" failed",
                   definition->display, "the elements count as different"},
                  path));
  if (failure) return std::nullopt;
  return forms;
}

std::optional<engine::Value> ScriptState::plan_attribute(const std::string& type_name,
                                                         const engine::Attribute& attribute,
                                                         const engine::PlanContext& at,
                                                         engine::Diagnostics& diags) {
  const Found found = find(engine::SchemaOwner::Resource, type_name);
  const Definition* definition = found.definition;
  if (!definition) return std::nullopt;
  std::optional<engine::Value> value;
  const engine::AttributePath& path = at.path;
  const Request lent = request_at(at);
  auto call =
      invocation({type_name, found.schema},
                 deadline(HookKind::Plan, "plan of \"" + engine::path_to_string(path) + "\""));
  auto failure = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    if (lua_getfield(S, -1, "plan") != LUA_TFUNCTION) return;
    push_request(S, lent, call);
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
    lua_call(S, 2, 1);
    if (lua_isnil(S, -1)) return;  // keep the plan's value
    try {
      value = to_value(S, -1, attribute.type, attribute.name);
    } catch (const ConversionError& e) {
      throw std::runtime_error(definition->display + ": plan returned a value that does not " +
                               "fit: " + e.what());
    }
  });
  diags.append(call.report(failure,
                           {type_name + ": plan of \"" + engine::path_to_string(path) + "\" failed",
                            definition->display},
                           path));
  if (failure) return std::nullopt;
  return value;
}

bool ScriptState::requires_replace(const std::string& type_name, const engine::AttributePath& path,
                                   const engine::Value& prior, const engine::Value& planned,
                                   const engine::HookObjects& around, engine::Diagnostics& diags) {
  const Found found = find(engine::SchemaOwner::Resource, type_name);
  const Definition* definition = found.definition;
  if (!definition) return false;
  bool replace = false;
  const Request lent = request_in(path, around, Step::Plan);
  auto call = invocation(
      {type_name, found.schema},
      deadline(HookKind::Plan, "requires_replace_if of \"" + engine::path_to_string(path) + "\""));
  auto failure = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    if (lua_getfield(S, -1, "requires_replace_if") != LUA_TFUNCTION) return;
    push_value(S, prior, Unknowns::Marked);
    push_value(S, planned, Unknowns::Marked);
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
    push_request(S, lent, call);
    lua_call(S, 4, 1);
    replace = lua_toboolean(S, -1) != 0;
  });
  diags.append(call.report(
      failure,
      {type_name + ": requires_replace_if of \"" + engine::path_to_string(path) + "\" failed",
       definition->display},
      path));
  return !failure && replace;
}

}  // namespace luaform::lua
