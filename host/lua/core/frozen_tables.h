// Tables a call cannot change for the calls after it. A Lua state serves many calls one after
// another, and every script of the provider shares the libraries (string, table, the SDK's
// `tf`); one call that replaced `string.format` or `tf.v.one_of` would change what every later
// call runs. So once a state is set up, those tables are frozen: reading works as ever, writing
// (also through rawset, table.insert or setmetatable) is an error at the script's line, and
// the metatables scripts could reach are sealed (getmetatable gives a name, not the table), so
// that no finalizer or metamethod can be slipped into them either.
#pragma once

#include <lua.hpp>

#include <string>

namespace luaform::lua {

// Freezes the table at `index` in place, and every table reachable from it through its fields,
// naming it `name` in errors ("string", "tf.v"). Its entries move to a hidden table that its
// new metatable reads through (__index, __pairs, __len); a metatable it had keeps its fields
// (its __call, __tostring) and the marker tables that compare by identity stay the same
// objects. Runs inside a protected call.
void freeze_table(lua_State* L, int index, const std::string& name);

// True when the table at `index` is frozen (rawset refuses it).
bool is_frozen(lua_State* L, int index);

// Sets __metatable on the metatable at `index` (unless it has one), so that getmetatable gives
// `name` instead of the table. For every metatable the host makes.
void seal_metatable(lua_State* L, int index, const char* name);

// Pushes a function for a __pairs field that iterates the table at `index` while handing the
// script only the table it iterates through (pairs' second result), never the one at `index`.
void push_pairs_over(lua_State* L, int index);

// A table that reads `index`'s table and refuses writes, for a script's view of a table the
// host itself must go on changing (package.loaded). Pushes the view.
void push_read_only_view(lua_State* L, int index, const std::string& name);

}  // namespace luaform::lua
