// ScriptState's hooks of one attribute, called while validating and planning: validate,
// diff_suppress / state_func, element_state_func, plan functions and requires_replace_if.
#include <stdexcept>

#include "host/lua/provider/script_state.h"

#include "host/engine/value/value_walk.h"
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

// Which of the attribute's own values the request of a hook holds besides `config` and `state`:
// a plan hook's resource is the plan, so it holds the planned value too.
enum class Step { Validate, Compare, Plan };

void set_value_field(lua_State* S, const engine::Value& value, const char* name) {
  if (value.is_null()) return;
  push_value(S, value, Unknowns::Marked);
  lua_setfield(S, -2, name);
}

// Pushes the request `p` every hook of the attribute at `path` gets (see ScriptState::validate).
void push_request(lua_State* S, const engine::AttributePath& path,
                  const engine::HookObjects& around, Step step) {
  lua_createtable(S, 0, 6);
  const std::string address = engine::path_to_address(path);
  lua_pushlstring(S, address.data(), address.size());
  lua_setfield(S, -2, "path");
  set_value_field(S, engine::value_at_path(around.config, path), "config");
  set_value_field(S, engine::value_at_path(around.prior, path), "state");
  if (step == Step::Plan)
    set_value_field(S, engine::value_at_path(around.resource, path), "planned");
  push_value(S, around.resource, Unknowns::Marked);
  if (path.size() <= 1) {
    lua_pushvalue(S, -1);  // at the top of the resource the object is the resource
  } else {
    const engine::AttributePath holder(path.begin(), path.end() - 1);
    push_value(S, engine::value_at_path(around.resource, holder), Unknowns::Marked);
  }
  lua_setfield(S, -3, "object");
  lua_setfield(S, -2, "resource");
}

}  // namespace

engine::Diagnostics ScriptState::validate(engine::SchemaOwner owner, const std::string& type_name,
                                          const engine::AttributePath& path,
                                          const engine::Value& value,
                                          const engine::HookObjects& around) {
  engine::Diagnostics diags;
  const Definition* definition = definition_of(owner, type_name);
  if (!definition) return diags;
  const std::string where = engine::path_to_address(path);
  std::vector<std::string> messages;
  auto call = invocation({type_name, schema_of(owner, type_name)},
                         deadline(HookKind::Check, "validate of \"" + where + "\""));
  auto failure = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    lua_getfield(S, -1, "validate");
    const int validators = lua_gettop(S);
    push_request(S, path, around, Step::Validate);
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
  const Definition* definition = definition_of(engine::SchemaOwner::Resource, type_name);
  if (!definition) return false;
  bool same = false;
  auto call = invocation(
      {type_name, schema_of(engine::SchemaOwner::Resource, type_name)},
      deadline(HookKind::Check, "the comparison of \"" + engine::path_to_string(path) + "\""));
  auto failure = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    const int spec = lua_gettop(S);
    push_request(S, path, around, Step::Compare);
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
  const Definition* definition = definition_of(engine::SchemaOwner::Resource, type_name);
  if (!definition) return std::nullopt;
  engine::Value::List forms;
  forms.reserve(elements.size());
  auto call = invocation(
      {type_name, schema_of(engine::SchemaOwner::Resource, type_name)},
      deadline(HookKind::Check, "element_state_func of \"" + engine::path_to_string(path) + "\""));
  auto failure = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    if (lua_getfield(S, -1, "element_state_func") != LUA_TFUNCTION) {
      throw std::runtime_error("the schema has no element_state_func at " +
                               engine::path_to_string(path));
    }
    const int normaliser = lua_gettop(S);
    push_request(S, path, around, Step::Compare);
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
  const Definition* definition = definition_of(engine::SchemaOwner::Resource, type_name);
  if (!definition) return std::nullopt;
  std::optional<engine::Value> value;
  const engine::AttributePath& path = at.path;
  auto call =
      invocation({type_name, schema_of(engine::SchemaOwner::Resource, type_name)},
                 deadline(HookKind::Plan, "plan of \"" + engine::path_to_string(path) + "\""));
  auto failure = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    if (lua_getfield(S, -1, "plan") != LUA_TFUNCTION) return;
    lua_createtable(S, 0, 6);
    const std::string address = engine::path_to_address(path);
    lua_pushlstring(S, address.data(), address.size());
    lua_setfield(S, -2, "path");
    const auto field = [&](const engine::Value& object, const char* name) {
      if (object.is_known() && !object.is_null()) {
        push_value(S, object.get_attribute(attribute.name), Unknowns::Marked);
        lua_setfield(S, -2, name);
      }
    };
    field(at.config, "config");
    field(at.prior, "state");
    field(at.planned, "planned");
    push_value(S, at.planned, Unknowns::Marked);
    // At the top of the resource the object is the resource: converted once, seen twice.
    if (&at.resource == &at.planned) {
      lua_pushvalue(S, -1);
    } else {
      push_value(S, at.resource, Unknowns::Marked);
    }
    lua_setfield(S, -3, "resource");
    lua_setfield(S, -2, "object");
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
  const Definition* definition = definition_of(engine::SchemaOwner::Resource, type_name);
  if (!definition) return false;
  bool replace = false;
  auto call = invocation(
      {type_name, schema_of(engine::SchemaOwner::Resource, type_name)},
      deadline(HookKind::Plan, "requires_replace_if of \"" + engine::path_to_string(path) + "\""));
  auto failure = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    replace_with_attribute_spec(S, path);
    if (lua_getfield(S, -1, "requires_replace_if") != LUA_TFUNCTION) return;
    push_value(S, prior, Unknowns::Marked);
    push_value(S, planned, Unknowns::Marked);
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
    push_request(S, path, around, Step::Plan);
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
