// ScriptState's calls on stored states: upgrade functions (of states and identities) and
// move_state (a state of another resource type).
#include <stdexcept>

#include "host/lua/provider/script_state.h"

#include "host/lua/core/json_conversion.h"
#include "host/lua/core/value_conversion.h"

namespace luaform::lua {

std::optional<engine::Value> ScriptState::upgrade(Stored what, const std::string& type_name,
                                                  int64_t from_version, int64_t to_version,
                                                  const std::string& raw_json,
                                                  const engine::Type& current,
                                                  engine::Diagnostics& diags) {
  const Found found = find(engine::SchemaOwner::Resource, type_name);
  if (found.definition == nullptr) return std::nullopt;
  const Definition& definition = *found.definition;
  const bool identity = what == Stored::Identity;
  const std::string noun = identity ? "identity" : "state";
  const std::string table = identity ? "identity.upgrade" : "upgrade";
  std::optional<engine::Value> upgraded;
  bool declared = false;
  auto call = invocation({type_name, found.schema},
                         deadline(HookKind::Hook, "the " + table + " of " + type_name));
  auto failure = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition.ref);
    if (identity && lua_getfield(S, -1, "identity") != LUA_TTABLE) return;
    if (lua_getfield(S, -1, "upgrade") != LUA_TTABLE) return;
    declared = true;
    const int upgrades = lua_gettop(S);
    push_json(S, raw_json);
    // The messages are built outside the loop below: it runs once per version.
    const auto step = [&](int64_t v) { return table + "[" + std::to_string(v) + "]"; };
    const auto missing = [&](int64_t v) {
      return definition.display +
             (identity ? ": no identity upgrade function" : ": no upgrade function") +
             " for version " + std::to_string(v) + " (" + step(v) + " turns a version " +
             std::to_string(v) + " " + noun + " into version " + std::to_string(v + 1) + ")";
    };
    const auto not_a_table = [&](int64_t v, const char* got) {
      return definition.display + ": " + step(v) + " must return the upgraded " + noun +
             " table, not a " + got;
    };
    // upgrade[v] turns a state (or identity) of version v into one of version v + 1.
    for (int64_t v = from_version; v < to_version; ++v) {
      if (lua_rawgeti(S, upgrades, v) != LUA_TFUNCTION) throw std::runtime_error(missing(v));
      lua_insert(S, -2);                               // function, stored value
      lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);  // nil before configure
      lua_call(S, 2, 1);
      if (!lua_istable(S, -1)) throw std::runtime_error(not_a_table(v, luaL_typename(S, -1)));
    }
    try {
      upgraded = to_value(S, -1, current, type_name, ExtraKeys::Drop);
    } catch (const ConversionError& e) {
      throw std::runtime_error(definition.display + ": the upgraded " + noun +
                               " does not fit the " + (identity ? "identity" : "schema") + ": " +
                               e.what());
    }
  });
  diags.append(
      call.report(failure, {"Upgrading the " + noun + " of " + type_name + " from " +
                                (identity ? "identity" : "schema") + " version " +
                                std::to_string(from_version) + " failed",
                            definition.display, "the stored " + noun + " is left as it was"}));
  if (failure || !declared) return std::nullopt;
  return upgraded;
}

std::optional<engine::Value> ScriptState::move_state(const std::string& type_name,
                                                     const engine::MoveSource& source,
                                                     const engine::Type& target,
                                                     engine::Diagnostics& diags) {
  const Found found = find(engine::SchemaOwner::Resource, type_name);
  if (found.definition == nullptr) return std::nullopt;
  const Definition& definition = *found.definition;
  std::optional<engine::Value> moved;
  auto call = invocation({type_name, found.schema},
                         deadline(HookKind::Hook, "the move_state of " + type_name));
  auto failure = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition.ref);
    if (lua_getfield(S, -1, "move_state") != LUA_TFUNCTION) return;
    lua_createtable(S, 0, 6);
    lua_pushlstring(S, source.type_name.data(), source.type_name.size());
    lua_setfield(S, -2, "type");
    lua_pushlstring(S, source.provider_address.data(), source.provider_address.size());
    lua_setfield(S, -2, "provider");
    lua_pushinteger(S, source.schema_version);
    lua_setfield(S, -2, "version");
    push_json(S, source.raw_json);
    lua_setfield(S, -2, "state");
    if (!source.identity_json.empty()) {
      push_json(S, source.identity_json);
      lua_setfield(S, -2, "identity");
      lua_pushinteger(S, source.identity_version);
      lua_setfield(S, -2, "identity_version");
    }
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);  // nil before configure
    lua_call(S, 2, 1);
    if (lua_isnil(S, -1)) return;
    if (!lua_istable(S, -1)) {
      throw std::runtime_error(definition.display + ": move_state must return the new state " +
                               "table (or nil for a source it does not take), not a " +
                               luaL_typename(S, -1));
    }
    try {
      moved = to_value(S, -1, target, type_name, ExtraKeys::Drop);
    } catch (const ConversionError& e) {
      throw std::runtime_error(definition.display + ": the moved state does not fit the " +
                               "schema: " + e.what());
    }
  });
  diags.append(call.report(failure, {"Moving " + source.type_name + " to " + type_name + " failed",
                                     definition.display, "the stored state is left as it was"}));
  if (failure) return std::nullopt;
  return moved;
}

}  // namespace luaform::lua
