// ScriptState's state stores: one function of the store's definition per operation, each given
// the `state_store` block's configuration first and the provider's client last.
#include <stdexcept>
#include <string>

#include "host/lua/core/value_conversion.h"
#include "host/lua/provider/script_state.h"

namespace luaform::lua {

namespace {

// The function of the definition on top of S's stack that runs `op`: required ones always are
// (the SDK checks), configure, lock and unlock may be absent.
const char* store_function(engine::StoreOp op) {
  return op == engine::StoreOp::Configure ? "configure" : engine::store_op_name(op);
}

// What states() returned, on top of S's stack: a list of names.
std::vector<std::string> read_state_ids(lua_State* S, const std::string& display) {
  if (!lua_istable(S, -1)) {
    throw std::runtime_error(display + ": states must return a list of the states' names, got " +
                             luaL_typename(S, -1));
  }
  std::vector<std::string> ids;
  for (lua_Integer i = 1; lua_rawgeti(S, -1, i) != LUA_TNIL; ++i) {
    if (lua_type(S, -1) != LUA_TSTRING) {
      throw std::runtime_error(display + ": states returned a " + luaL_typename(S, -1) +
                               " at position " + std::to_string(i) +
                               ": each state's name is a string");
    }
    ids.emplace_back(lua_tostring(S, -1));
    lua_pop(S, 1);
  }
  lua_pop(S, 1);
  return ids;
}

}  // namespace

engine::Diagnostics ScriptState::call_store(const std::string& type_name,
                                            const engine::Value& config, engine::StoreCall& call) {
  const Found found = find(engine::SchemaOwner::StateStore, type_name);
  const Definition* definition = found.definition;
  const char* name = store_function(call.op);
  engine::Diagnostics diags;
  if (definition == nullptr) {
    diags.error(type_name + ": " + name + " failed", "no script defines state store " + type_name);
    return diags;
  }
  const std::string what = std::string("the ") + name + " of " + type_name;
  auto invoked =
      invocation({type_name, found.schema},
                 CallDeadline{what, definition->timeout.value_or(hook_limits_.hook),
                              definition->timeout ? "" : " (the state store's `timeout` sets it)"});
  const auto error = invoked.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    const int store = lua_gettop(S);
    if (call.op == engine::StoreOp::Configure) {
      if (lua_getfield(S, store, "chunk_size") == LUA_TNUMBER) {
        call.chunk_size = lua_tointeger(S, -1);
      }
      lua_pop(S, 1);
    }
    // A store without locks answers every lock with the proposed id and takes every unlock:
    // the CLI needs an id, and has nothing else to release.
    if (lua_getfield(S, store, name) != LUA_TFUNCTION) return;
    push_value(S, config);
    int arguments = 1;
    if (call.op != engine::StoreOp::Configure && call.op != engine::StoreOp::States) {
      lua_pushlstring(S, call.state_id.data(), call.state_id.size());
      ++arguments;
    }
    if (call.op == engine::StoreOp::Write) {
      const std::string& state = *call.state;
      lua_pushlstring(S, state.data(), state.size());
      ++arguments;
    } else if (call.op == engine::StoreOp::Lock) {
      lua_createtable(S, 0, 2);
      lua_pushstring(S, call.lock_id.c_str());
      lua_setfield(S, -2, "id");
      lua_pushstring(S, call.operation.c_str());
      lua_setfield(S, -2, "operation");
      ++arguments;
    } else if (call.op == engine::StoreOp::Unlock) {
      lua_pushstring(S, call.lock_id.c_str());
      ++arguments;
    }
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
    lua_call(S, arguments + 1, 1);
    switch (call.op) {
      case engine::StoreOp::States:
        call.state_ids = read_state_ids(S, definition->display);
        break;
      case engine::StoreOp::Read:
        if (lua_type(S, -1) == LUA_TSTRING) {
          size_t size = 0;
          const char* bytes = lua_tolstring(S, -1, &size);
          call.state.emplace(bytes, size);
        } else if (!lua_isnil(S, -1)) {
          throw std::runtime_error(definition->display +
                                   ": read must return the state as a string, or nil when there "
                                   "is none; it returned a " +
                                   luaL_typename(S, -1));
        }
        break;
      case engine::StoreOp::Lock:
        if (lua_type(S, -1) == LUA_TSTRING) {
          call.lock_id = lua_tostring(S, -1);
        } else if (!lua_isnil(S, -1)) {
          throw std::runtime_error(definition->display +
                                   ": lock returns the lock's id (a string), or nothing to keep "
                                   "info.id; it returned a " +
                                   luaL_typename(S, -1));
        }
        break;
      default:
        break;
    }
  });
  return invoked.report(error, {type_name + ": " + name + " failed", definition->display});
}

}  // namespace luaform::lua
