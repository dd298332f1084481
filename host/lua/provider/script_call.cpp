// ScriptState's CRUD calls: a resource's create, read, update, delete and import, a data source's
// read, an ephemeral resource's open, renew and close, each on the `d` it is lent.
#include "host/lua/provider/script_state.h"

#include <stdexcept>

#include "host/lua/provider/resource_data_object.h"

namespace luaform::lua {
namespace {

// Operations that have a timeout of their own (the user's `timeouts` block): create, read,
// update, delete, and a data source's read.
bool has_own_timeout(engine::Operation op) {
  switch (op) {
    case engine::Operation::Create:
    case engine::Operation::Read:
    case engine::Operation::Update:
    case engine::Operation::Delete:
    case engine::Operation::ReadData:
      return true;
    default:
      return false;
  }
}

}  // namespace

engine::Diagnostics ScriptState::call(engine::Operation op, const std::string& type_name,
                                      engine::ResourceData& d) {
  const std::string failed = type_name + ": " + engine::operation_name(op) + " failed";
  const engine::SchemaOwner owner = owner_of(op);
  const Definition* found = find(owner, type_name).definition;
  if (found == nullptr) {
    engine::Diagnostics diags;
    diags.error(failed, "no script defines " + std::string(owner_name(owner)) + " " + type_name);
    return diags;
  }
  const Definition& definition = *found;
  const char* function = engine::operation_name(op);
  const bool plans = op == engine::Operation::CustomizeDiff || op == engine::Operation::PlanDestroy;
  auto call = invocation({type_name, &d.schema()},
                         has_own_timeout(op) ? CallDeadline{function, d.timeout(function)}
                                             : deadline(plans ? HookKind::Plan : HookKind::Hook,
                                                        type_name + "'s " + function));
  const auto error = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition.ref);
    if (lua_getfield(S, -1, function) != LUA_TFUNCTION) {
      // import = tf.import_by_id: the id is all there is to import. An ephemeral resource
      // without renew or close has nothing to keep alive or release.
      if (op == engine::Operation::Import || op == engine::Operation::Renew ||
          op == engine::Operation::Close) {
        return;
      }
      throw std::runtime_error(definition.display + " declares no " + function + " function");
    }
    call.expire_at_end(S, push_resource_data(S, d));
    const int lent_d = lua_gettop(S);
    // exists(d, client) == false before a refresh means the object is gone: helper/schema's
    // Exists, mapped onto the read rule that an empty id removes the object from state.
    if (op == engine::Operation::Read) {
      if (lua_getfield(S, lent_d - 2, "exists") == LUA_TFUNCTION) {
        lua_pushvalue(S, lent_d);
        lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);
        lua_call(S, 2, 1);
        const bool exists = lua_toboolean(S, -1) != 0;
        lua_pop(S, 1);
        if (!exists) {
          d.set_id("");
          return;
        }
      } else {
        lua_pop(S, 1);
      }
    }
    lua_rawgeti(S, LUA_REGISTRYINDEX, client_ref_);  // nil for LUA_NOREF
    lua_call(S, 2, 0);
  });
  return call.report(error, {failed, definition.display});
}

}  // namespace luaform::lua
