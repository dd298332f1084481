#include "host/lua/core/frozen_tables.h"

namespace luaform::lua {
namespace {

// The registry key of the table mapping each frozen table (weak keys) to the table its
// entries moved to.
const char kFrozenKey = 0;

// Tables nested deeper than this below a library are left as they are: libraries are shallow,
// and the walk must not exhaust a small thread stack.
constexpr int kMaxDepth = 32;

void push_frozen_set(lua_State* L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &kFrozenKey) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_createtable(L, 0, 64);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kFrozenKey);
}

// __newindex of a frozen table: upvalue 1 is its name.
int refuse_assignment(lua_State* L) {
  const std::string name = lua_tostring(L, lua_upvalueindex(1));
  const std::string key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : luaL_typename(L, 2);
  luaL_where(L, 1);
  const std::string where = lua_tostring(L, -1);
  lua_pop(L, 1);
  lua_pushstring(L, (where + "cannot set '" + key + "' in " + name +
                     ": the tables of Lua's and the SDK's libraries are read-only (a change "
                     "would reach every later call); keep your own values in a local table")
                        .c_str());
  return lua_error(L);
}

// The iterator __pairs returns: upvalue 1 is the hidden table, which never reaches the script
// (the state pairs hands back is the frozen table itself).
int next_hidden(lua_State* L) {
  lua_settop(L, 2);
  if (lua_next(L, lua_upvalueindex(1)) == 0) {
    lua_pushnil(L);
    return 1;
  }
  return 2;
}

int pairs_hidden(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushcclosure(L, next_hidden, 1);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

int length_hidden(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(lua_rawlen(L, lua_upvalueindex(1))));
  return 1;
}

// __index of a frozen table whose metatable had an __index of its own: the hidden table first
// (upvalue 1), then the old __index (upvalue 2, a table or a function).
int index_chained(lua_State* L) {
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  if (lua_type(L, lua_upvalueindex(2)) == LUA_TFUNCTION) {
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 1);
    return 1;
  }
  lua_pushvalue(L, 2);
  lua_gettable(L, lua_upvalueindex(2));
  return 1;
}

// Sets the fields that make the metatable at `mt` read through `hidden` and refuse writes.
void make_reader(lua_State* L, int mt, int hidden, const std::string& name) {
  lua_pushstring(L, name.c_str());
  lua_pushcclosure(L, refuse_assignment, 1);
  lua_setfield(L, mt, "__newindex");
  lua_pushvalue(L, hidden);
  lua_pushcclosure(L, pairs_hidden, 1);
  lua_setfield(L, mt, "__pairs");
  lua_pushvalue(L, hidden);
  lua_pushcclosure(L, length_hidden, 1);
  lua_setfield(L, mt, "__len");
  if (lua_getfield(L, mt, "__metatable") == LUA_TNIL) {
    lua_pushstring(L, name.c_str());
    lua_setfield(L, mt, "__metatable");
  }
  lua_pop(L, 1);
}

void freeze(lua_State* L, int table, const std::string& name, int depth) {
  if (depth > kMaxDepth || is_frozen(L, table)) return;
  luaL_checkstack(L, 8, "freezing a library table");
  const int top = lua_gettop(L);
  lua_newtable(L);
  const int hidden = lua_gettop(L);
  push_frozen_set(L);
  lua_pushvalue(L, table);
  lua_pushvalue(L, hidden);
  lua_rawset(L, -3);  // marked before the walk below, so that a cycle ends
  lua_pop(L, 1);

  // The entries move to the hidden table.
  lua_pushnil(L);
  while (lua_next(L, table) != 0) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, hidden);
  }
  lua_pushnil(L);
  while (lua_next(L, hidden) != 0) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_pushnil(L);
    lua_rawset(L, table);
  }

  // The new metatable keeps the old one's fields (a type's __call, a marker's __tostring).
  lua_newtable(L);
  const int mt = lua_gettop(L);
  bool chained = false;
  if (lua_getmetatable(L, table) != 0) {
    const int old = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, old) != 0) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, mt);
    }
    if (lua_getfield(L, old, "__index") != LUA_TNIL) {
      lua_pushvalue(L, hidden);
      lua_insert(L, -2);
      lua_pushcclosure(L, index_chained, 2);
      lua_setfield(L, mt, "__index");
      chained = true;
    } else {
      lua_pop(L, 1);
    }
    lua_pop(L, 1);  // old
  }
  if (!chained) {
    lua_pushvalue(L, hidden);
    lua_setfield(L, mt, "__index");
  }
  make_reader(L, mt, hidden, name);
  lua_setmetatable(L, table);

  // Then every table among its values, named by its key.
  lua_pushnil(L);
  while (lua_next(L, hidden) != 0) {
    if (lua_istable(L, -1)) {
      std::string field = name;
      field += '.';
      field += lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
      freeze(L, lua_gettop(L), field, depth + 1);
    }
    lua_pop(L, 1);
  }
  lua_settop(L, top);
}

}  // namespace

void freeze_table(lua_State* L, int index, const std::string& name) {
  index = lua_absindex(L, index);
  if (lua_istable(L, index)) freeze(L, index, name, 0);
}

bool is_frozen(lua_State* L, int index) {
  if (!lua_istable(L, index)) return false;
  index = lua_absindex(L, index);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &kFrozenKey) != LUA_TTABLE) {
    lua_pop(L, 1);
    return false;
  }
  lua_pushvalue(L, index);
  const bool frozen = lua_rawget(L, -2) != LUA_TNIL;
  lua_pop(L, 2);
  return frozen;
}

void seal_metatable(lua_State* L, int index, const char* name) {
  index = lua_absindex(L, index);
  if (lua_getfield(L, index, "__metatable") == LUA_TNIL) {
    lua_pushstring(L, name);
    lua_setfield(L, index, "__metatable");
  }
  lua_pop(L, 1);
}

void push_pairs_over(lua_State* L, int index) {
  lua_pushvalue(L, index);
  lua_pushcclosure(L, pairs_hidden, 1);
}

void push_read_only_view(lua_State* L, int index, const std::string& name) {
  index = lua_absindex(L, index);
  lua_newtable(L);
  const int view = lua_gettop(L);
  lua_newtable(L);
  const int mt = lua_gettop(L);
  lua_pushvalue(L, index);
  lua_setfield(L, mt, "__index");
  make_reader(L, mt, index, name);
  lua_setmetatable(L, view);
  push_frozen_set(L);
  lua_pushvalue(L, view);
  lua_pushvalue(L, index);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

}  // namespace luaform::lua
