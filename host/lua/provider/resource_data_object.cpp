#include "host/lua/provider/resource_data_object.h"

#include <chrono>
#include <stdexcept>
#include <string>

#include "host/lua/core/frozen_tables.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/json_conversion.h"
#include "host/lua/core/value_conversion.h"

namespace luaform::lua {
namespace {

using engine::ResourceData;
using engine::Type;

constexpr const char* kMetatable = "luaform.ResourceData";

ResourceData& self(lua_State* L) {
  void* lent = *static_cast<void**>(luaL_checkudata(L, 1, kMetatable));
  // Thrown rather than raised with luaL_error so that the compiler sees that it never returns;
  // `guarded` turns it into a Lua error at the script's line.
  if (lent == nullptr) {
    throw std::runtime_error("d is no longer usable: the call it was passed to has returned");
  }
  return *static_cast<ResourceData*>(lent);
}

// The declared type of the attribute named by argument 2; an unknown name is an error.
Type attribute_type(lua_State* L, const ResourceData& d, const char* method) {
  const std::string key = luaL_checkstring(L, 2);
  auto type = d.type_of(key);
  if (!type) {
    throw std::runtime_error("d:" + std::string(method) + ": the schema has no attribute \"" + key +
                             "\"");
  }
  return *type;
}

void push_or_zero(lua_State* L, const engine::Value& v, const Type& type) {
  if (v.is_null() || v.is_unknown()) {
    push_zero(L, type);
  } else {
    push_value(L, v);
  }
}

int get(lua_State* L) {
  ResourceData& d = self(L);
  const Type type = attribute_type(L, d, "get");
  push_or_zero(L, d.get(lua_tostring(L, 2)), type);
  return 1;
}

int get_ok(lua_State* L) {
  ResourceData& d = self(L);
  const Type type = attribute_type(L, d, "get_ok");
  const engine::Value v = d.get(lua_tostring(L, 2));
  push_or_zero(L, v, type);
  lua_pushboolean(L, !is_zero(v));
  return 2;
}

// What get_ok cannot say: an empty string (or 0, false, {}) that was set is not null.
int is_null(lua_State* L) {
  ResourceData& d = self(L);
  attribute_type(L, d, "is_null");
  lua_pushboolean(L, d.get(lua_tostring(L, 2)).is_null() ? 1 : 0);
  return 1;
}

int set(lua_State* L) {
  ResourceData& d = self(L);
  const std::string key = luaL_checkstring(L, 2);
  auto type = d.type_of(key);
  if (!type) throw std::runtime_error("d:set: the schema has no attribute \"" + key + "\"");
  engine::Value v = to_value(L, 3, *type, key);
  engine::Diagnostics diags = d.set(key, std::move(v));
  for (const auto& diag : diags.items()) {
    if (diag.severity != engine::Severity::Error) continue;
    const std::string message = diag.summary + (diag.detail.empty() ? "" : ": " + diag.detail);
    luaL_error(L, "d:set: %s", message.c_str());
  }
  return 0;
}

int id(lua_State* L) {
  const std::string current = self(L).id();
  lua_pushlstring(L, current.data(), current.size());
  return 1;
}

int set_id(lua_State* L) {
  ResourceData& d = self(L);
  if (lua_type(L, 2) != LUA_TSTRING && lua_type(L, 2) != LUA_TNUMBER) {
    luaL_error(L, "d:set_id expects a string, got %s (d:set_id(\"\") marks the object gone)",
               luaL_typename(L, 2));
  }
  size_t length = 0;
  lua_pushvalue(L, 2);  // converting a copy leaves the caller's number alone
  const char* text = lua_tolstring(L, -1, &length);
  d.set_id(std::string(text, length));
  return 0;
}

int has_change(lua_State* L) {
  ResourceData& d = self(L);
  attribute_type(L, d, "has_change");
  lua_pushboolean(L, d.has_change(lua_tostring(L, 2)));
  return 1;
}

// d:has_changes("a", "b", ...): true when any of them changes.
int has_changes(lua_State* L) {
  ResourceData& d = self(L);
  const int n = lua_gettop(L);
  bool changed = false;
  for (int i = 2; i <= n; ++i) {
    const std::string key = luaL_checkstring(L, i);
    if (!d.type_of(key)) {
      throw std::runtime_error("d:has_changes: the schema has no attribute \"" + key + "\"");
    }
    changed = changed || d.has_change(key);
  }
  lua_pushboolean(L, changed ? 1 : 0);
  return 1;
}

// d:timeout("create"): seconds the operation may take, for wait loops and retries.
int timeout(lua_State* L) {
  ResourceData& d = self(L);
  const std::string operation = luaL_checkstring(L, 2);
  if (operation != "create" && operation != "read" && operation != "update" &&
      operation != "delete") {
    throw std::runtime_error(
        "d:timeout: the operation is one of \"create\", \"read\", "
        "\"update\" or \"delete\", not \"" +
        operation + "\"");
  }
  const auto duration = d.timeout(operation);
  lua_pushnumber(L, std::chrono::duration<double>(duration).count());
  return 1;
}

// The plan-time methods exist only while customize_diff runs.
ResourceData& planning(lua_State* L, const char* method) {
  ResourceData& d = self(L);
  if (!d.plan_changes_allowed()) {
    throw std::runtime_error(std::string("d:") + method +
                             " is for customize_diff only; create and update set values with "
                             "d:set");
  }
  return d;
}

int set_new(lua_State* L) {
  planning(L, "set_new");
  return set(L);
}

int set_new_computed(lua_State* L) {
  ResourceData& d = planning(L, "set_new_computed");
  attribute_type(L, d, "set_new_computed");
  d.set_new_computed(lua_tostring(L, 2));
  return 0;
}

int force_new(lua_State* L) {
  ResourceData& d = planning(L, "force_new");
  attribute_type(L, d, "force_new");
  d.force_new(lua_tostring(L, 2));
  return 0;
}

// d:partial(true) before a series of API calls, d:set_partial("name") after each one that
// succeeded, d:partial(false) at the end (see ResourceData::set_partial).
int partial(lua_State* L) {
  ResourceData& d = self(L);
  luaL_checktype(L, 2, LUA_TBOOLEAN);
  d.set_partial(lua_toboolean(L, 2) != 0);
  return 0;
}

int set_partial(lua_State* L) {
  ResourceData& d = self(L);
  attribute_type(L, d, "set_partial");
  const std::string name = lua_tostring(L, 2);
  if (name.find('.') != std::string::npos) {
    throw std::runtime_error("d:set_partial: \"" + name +
                             "\" is not a top-level attribute or block name (a block is saved "
                             "whole)");
  }
  d.mark_partial(name);
  return 0;
}

int is_unknown(lua_State* L) {
  ResourceData& d = self(L);
  attribute_type(L, d, "is_unknown");
  lua_pushboolean(L, d.is_unknown(lua_tostring(L, 2)) ? 1 : 0);
  return 1;
}

int get_change(lua_State* L) {
  ResourceData& d = self(L);
  const Type type = attribute_type(L, d, "get_change");
  auto [old_value, new_value] = d.get_change(lua_tostring(L, 2));
  push_or_zero(L, old_value, type);
  push_or_zero(L, new_value, type);
  return 2;
}

int is_new_resource(lua_State* L) {
  lua_pushboolean(L, self(L).is_new_resource());
  return 1;
}

// d:defer([reason]): in a plan (customize_diff), a read, an import, a data source's read or an
// ephemeral resource's open,
// answer "not now": the CLI plans the rest and comes back in a later run. The reason is
// "absent_prereq" (the default: something the object needs does not exist yet),
// "resource_config_unknown" or "provider_config_unknown". The function should return after it.
int defer(lua_State* L) {
  engine::DeferralReason reason = engine::DeferralReason::AbsentPrereq;
  if (!lua_isnoneornil(L, 2)) {
    const std::string given = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";
    if (given == "resource_config_unknown") {
      reason = engine::DeferralReason::ResourceConfigUnknown;
    } else if (given == "provider_config_unknown") {
      reason = engine::DeferralReason::ProviderConfigUnknown;
    } else if (given != "absent_prereq") {
      throw std::runtime_error(
          "d:defer: the reason must be \"absent_prereq\", \"resource_config_unknown\" or "
          "\"provider_config_unknown\"");
    }
  }
  const engine::Diagnostics diags = self(L).defer(reason);
  for (const auto& diag : diags.items()) {
    throw std::runtime_error("d:defer: " + diag.summary + ": " + diag.detail);
  }
  return 0;
}

// d:keeps_planned_private(): in customize_diff, whether what d:set_private keeps comes back to
// the plan made again at apply (Terraform 1.16's protocol 6.11).
int keeps_planned_private(lua_State* L) {
  lua_pushboolean(L, self(L).planned_private_kept());
  return 1;
}

// d:private("key") / d:set_private("key", value): values the script keeps with the object
// for itself (strings, numbers, booleans, tables: anything JSON holds). Terraform stores them
// with the state, or hands an ephemeral resource's to renew and close, and never shows them.
int get_private(lua_State* L) {
  ResourceData& d = self(L);
  const std::string key = luaL_checkstring(L, 2);
  push_json_member(L, d.private_data(), key, "d:private: the private data");
  return 1;
}

int set_private(lua_State* L) {
  ResourceData& d = self(L);
  const std::string key = luaL_checkstring(L, 2);
  luaL_checkany(L, 3);
  d.set_private_data(
      with_json_member(L, d.private_data(), key, 3, "d:set_private: the private data"));
  return 0;
}

// d:identity(): the object's identity as a table (the stored one, or an import block's), with
// what d:set_identity set on top; nil when there is none yet.
int identity(lua_State* L) {
  const engine::Value v = self(L).identity();
  if (v.is_null() || !v.is_known()) {
    lua_pushnil(L);
  } else {
    push_value(L, v);
  }
  return 1;
}

// d:set_identity { name = value, ... }: identity attributes the engine cannot copy from the
// resource attributes of the same name.
int set_identity(lua_State* L) {
  ResourceData& d = self(L);
  luaL_checktype(L, 2, LUA_TTABLE);
  if (!d.schema().identity) {
    throw std::runtime_error(
        "d:set_identity: the resource declares no identity (identity = { "
        "schema = { ... } })");
  }
  lua_pushnil(L);
  while (lua_next(L, 2) != 0) {
    const std::string key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
    const engine::IdentityAttribute* attr = d.schema().identity->find(key);
    if (!attr) {
      throw std::runtime_error("d:set_identity: the identity has no attribute \"" + key + "\"");
    }
    engine::Value v = to_value(L, -1, attr->type, key);
    const engine::Diagnostics diags = d.set_identity(key, std::move(v));
    for (const auto& diag : diags.items()) {
      if (diag.severity == engine::Severity::Error) {
        throw std::runtime_error("d:set_identity: " + diag.summary + ": " + diag.detail);
      }
    }
    lua_pop(L, 1);
  }
  return 0;
}

// d:renew_in(seconds): an ephemeral resource's open or renew asks to be renewed that much later.
int renew_in(lua_State* L) {
  ResourceData& d = self(L);
  if (!d.renewal_allowed()) {
    throw std::runtime_error("d:renew_in is for an ephemeral resource's open and renew only");
  }
  const lua_Number seconds = luaL_checknumber(L, 2);
  if (!(seconds >= 0) || seconds > 1e9) {
    throw std::runtime_error("d:renew_in expects a number of seconds from 0 to 1e9");
  }
  const auto delay = std::chrono::duration_cast<std::chrono::system_clock::duration>(
      std::chrono::duration<double>(seconds));
  d.set_renew_at(std::chrono::system_clock::now() + delay);
  return 0;
}

int to_string(lua_State* L) {
  void* lent = *static_cast<void**>(luaL_checkudata(L, 1, kMetatable));
  lua_pushstring(L, lent == nullptr ? "ResourceData (expired)" : "ResourceData");
  return 1;
}

}  // namespace

void register_resource_data_type(lua_State* L) {
  static const luaL_Reg methods[] = {
      {"get", guarded<get>},
      {"get_ok", guarded<get_ok>},
      {"is_null", guarded<is_null>},
      {"set", guarded<set>},
      {"id", guarded<id>},
      {"set_id", guarded<set_id>},
      {"has_change", guarded<has_change>},
      {"has_changes", guarded<has_changes>},
      {"timeout", guarded<timeout>},
      {"set_new", guarded<set_new>},
      {"set_new_computed", guarded<set_new_computed>},
      {"force_new", guarded<force_new>},
      {"is_unknown", guarded<is_unknown>},
      {"partial", guarded<partial>},
      {"set_partial", guarded<set_partial>},
      {"get_change", guarded<get_change>},
      {"is_new_resource", guarded<is_new_resource>},
      {"defer", guarded<defer>},
      {"keeps_planned_private", guarded<keeps_planned_private>},
      {"private", guarded<get_private>},
      {"set_private", guarded<set_private>},
      {"renew_in", guarded<renew_in>},
      {"identity", guarded<identity>},
      {"set_identity", guarded<set_identity>},
      {nullptr, nullptr},
  };
  luaL_newmetatable(L, kMetatable);
  luaL_newlib(L, methods);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, guarded<to_string>);
  lua_setfield(L, -2, "__tostring");
  seal_metatable(L, -1, kMetatable);
  lua_pop(L, 1);
}

void** push_resource_data(lua_State* L, ResourceData& data) {
  auto** slot = static_cast<void**>(lua_newuserdatauv(L, sizeof(void*), 0));
  *slot = &data;
  luaL_setmetatable(L, kMetatable);
  return slot;
}

}  // namespace luaform::lua
