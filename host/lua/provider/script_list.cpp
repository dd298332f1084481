// ScriptState's listings: a list resource's list(request, emit, client), and the emit function
// that hands each object to the engine as the script finds it.
#include "host/lua/provider/script_state.h"

#include "host/lua/core/script_where.h"
#include "host/lua/core/value_conversion.h"

namespace luaform::lua {

namespace {

// What the emit function a list call hands its script needs: where objects go, the types they
// convert to, and how to run the listed resource's import and read on this state.
struct Listing {
  const engine::ListEmit* emit;
  const engine::Type* identity;
  const engine::Type* object;
  engine::ListedCall run;
  bool stopped = false;
};

// emit { identity = {...}, display_name = "...", object = {...} } -> true while more are wanted.
// An element that does not convert is reported as a warning, and the listing goes on.
int list_emit(lua_State* L, void* target) {
  auto* listing = static_cast<Listing*>(target);
  if (listing->stopped) {
    lua_pushboolean(L, 0);
    return 1;
  }
  luaL_checktype(L, 1, LUA_TTABLE);
  engine::ListedObject listed;
  listed.emitted_at = script_where(L);
  if (lua_getfield(L, 1, "display_name") == LUA_TSTRING) listed.display_name = lua_tostring(L, -1);
  lua_pop(L, 1);
  try {
    lua_getfield(L, 1, "identity");
    listed.identity = to_value(L, -1, *listing->identity, "identity");
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "object") != LUA_TNIL) {
      listed.object = to_value(L, -1, *listing->object, "object");
    }
    lua_pop(L, 1);
  } catch (const ConversionError& e) {
    const std::string name =
        listed.display_name.empty() ? std::string("an object") : "\"" + listed.display_name + "\"";
    listed.diagnostics.warning(
        "A listed object is left out",
        listed.emitted_at + name + " does not fit the resource: " + e.what());
  }
  const bool more = (*listing->emit)(std::move(listed), listing->run);
  listing->stopped = !more;
  lua_pushboolean(L, more ? 1 : 0);
  return 1;
}

}  // namespace

engine::Diagnostics ScriptState::list(const std::string& type_name, const engine::Schema& resource,
                                      const engine::Value& config,
                                      const engine::ListOptions& options,
                                      const engine::ListEmit& emit) {
  const Definition* definition = find(engine::SchemaOwner::ListResource, type_name).definition;
  engine::Diagnostics diags;
  if (definition == nullptr || !resource.identity) {
    diags.error(type_name + ": list failed", "no script lists " + type_name);
    return diags;
  }
  const engine::Type identity = resource.identity->implied_type();
  const engine::Type object = resource.block.implied_type();
  Listing listing{&emit, &identity, &object,
                  [this, &type_name](engine::Operation op, engine::ResourceData& d) {
                    return call(op, type_name, d);
                  }};
  auto call = invocation(
      {type_name, &resource},
      CallDeadline{"the listing of " + type_name, definition->timeout.value_or(hook_limits_.run),
                   definition->timeout ? "" : " (the list resource's `timeout` sets it)"});
  const auto error = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition->ref);
    lua_getfield(S, -1, "list");
    // list(request, emit, client): request = { config =, limit =, include_resource = }.
    lua_createtable(S, 0, 3);
    push_value(S, config);
    lua_setfield(S, -2, "config");
    lua_pushinteger(S, options.limit);
    lua_setfield(S, -2, "limit");
    lua_pushboolean(S, options.include_resource ? 1 : 0);
    lua_setfield(S, -2, "include_resource");
    call.lend(S, "emit", list_emit, &listing);
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
    lua_call(S, 3, 0);
  });
  diags.append(call.report(error, {type_name + ": list failed", definition->display}));
  return diags;
}

}  // namespace luaform::lua
