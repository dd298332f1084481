#include "host/lua/core/string_patterns.h"

#include <cctype>
#include <cstring>
#include <string_view>

#include "host/lua/core/guarded.h"
#include "host/lua/core/pattern_matcher.h"

namespace luaform::lua {
namespace {

// A 1-based, possibly negative start position as Lua's string functions read it.
size_t start_position(lua_Integer position, size_t length) {
  if (position > 0) return static_cast<size_t>(position);
  if (position == 0) return 1;
  if (position < -static_cast<lua_Integer>(length)) return 1;
  return length + static_cast<size_t>(position) + 1;
}

// string.find (find = true) and string.match.
int find_or_match(lua_State* L, bool find) {
  size_t length = 0;
  size_t pattern_length = 0;
  const char* s = luaL_checklstring(L, 1, &length);
  const char* p = luaL_checklstring(L, 2, &pattern_length);
  const size_t init = start_position(luaL_optinteger(L, 3, 1), length);
  if (init > length + 1) {
    luaL_pushfail(L);
    return 1;
  }
  if (find && (lua_toboolean(L, 4) || is_plain_pattern(p, pattern_length))) {
    const std::string_view subject(s + init - 1, length - init + 1);
    const size_t at = subject.find(std::string_view(p, pattern_length));
    if (at == std::string_view::npos) {
      luaL_pushfail(L);
      return 1;
    }
    const auto first = static_cast<lua_Integer>(init) + static_cast<lua_Integer>(at);
    lua_pushinteger(L, first);
    lua_pushinteger(L, first + static_cast<lua_Integer>(pattern_length) - 1);
    return 2;
  }
  const bool anchored = *p == '^';
  if (anchored) {
    ++p;
    --pattern_length;
  }
  MatchBudget budget(L);
  PatternMatch state(s, length, p, pattern_length, &budget);
  const char* start = s + init - 1;
  do {
    if (const char* end = state.match_at(start, p)) {
      if (!find) return state.push_captures(L, start, end);
      lua_pushinteger(L, static_cast<lua_Integer>(start - s) + 1);
      lua_pushinteger(L, static_cast<lua_Integer>(end - s));
      return state.push_captures(L, nullptr, nullptr) + 2;
    }
  } while (start++ < state.subject_end() && !anchored);
  luaL_pushfail(L);
  return 1;
}

int find(lua_State* L) {
  return find_or_match(L, true);
}

int match(lua_State* L) {
  return find_or_match(L, false);
}

// gmatch's iterator: upvalues 1 and 2 hold the subject and the pattern (keeping them alive),
// upvalue 3 the position to go on from (0-based; the length + 1 when gmatch's init was past
// the end) and upvalue 4 where the last match ended (-1: none).
int gmatch_next(lua_State* L) {
  size_t length = 0;
  size_t pattern_length = 0;
  const char* s = lua_tolstring(L, lua_upvalueindex(1), &length);
  const char* p = lua_tolstring(L, lua_upvalueindex(2), &pattern_length);
  const auto from = static_cast<size_t>(lua_tointeger(L, lua_upvalueindex(3)));
  const lua_Integer last = lua_tointeger(L, lua_upvalueindex(4));
  // Started past the end of the subject: Lua 5.4 tries nowhere, not even at the end.
  if (from > length) return 0;
  MatchBudget budget(L);
  PatternMatch state(s, length, p, pattern_length, &budget);
  for (const char* start = s + from; start <= state.subject_end(); ++start) {
    const char* end = state.match_at(start, p);
    // An empty match where the last one ended is no new match.
    if (end != nullptr && end - s != last) {
      lua_pushinteger(L, end - s);
      lua_copy(L, -1, lua_upvalueindex(3));
      lua_replace(L, lua_upvalueindex(4));
      return state.push_captures(L, start, end);
    }
  }
  return 0;
}

int gmatch(lua_State* L) {
  size_t length = 0;
  luaL_checklstring(L, 1, &length);
  luaL_checkstring(L, 2);
  size_t init = start_position(luaL_optinteger(L, 3, 1), length);
  // Past the end (as Lua keeps it, without overflowing): the iterator finds nothing at all.
  if (init > length + 1) init = length + 2;
  lua_settop(L, 2);
  lua_pushinteger(L, static_cast<lua_Integer>(init - 1));
  lua_pushinteger(L, -1);
  lua_pushcclosure(L, guarded<gmatch_next>, 4);
  return 1;
}

// gsub's replacement string: %0 to %9 are captures, %% a percent sign.
void add_replacement_text(lua_State* L, luaL_Buffer* b, const PatternMatch& state, const char* s,
                          const char* e) {
  size_t length = 0;
  const char* text = lua_tolstring(L, 3, &length);
  const char* end = text + length;
  for (const char* p = text; p < end; ++p) {
    if (*p != '%') {
      luaL_addchar(b, *p);
      continue;
    }
    ++p;
    if (p < end && *p == '%') {
      luaL_addchar(b, '%');
    } else if (p < end && *p == '0') {
      luaL_addlstring(b, s, static_cast<size_t>(e - s));
    } else if (p < end && std::isdigit(static_cast<unsigned char>(*p)) != 0) {
      state.push_capture(L, *p - '1', s, e);
      luaL_addvalue(b);  // a position capture is added as its number
    } else {
      luaL_error(L, "invalid use of '%%' in replacement string");
    }
  }
}

// Adds the replacement of the match s..e; false when the match is kept as it is (a table or
// function gave nil or false).
bool add_replacement(lua_State* L, luaL_Buffer* b, const PatternMatch& state, const char* s,
                     const char* e, int kind) {
  switch (kind) {
    case LUA_TFUNCTION: {
      lua_pushvalue(L, 3);
      const int count = state.push_captures(L, s, e);
      lua_call(L, count, 1);
      break;
    }
    case LUA_TTABLE:
      state.push_capture(L, 0, s, e);
      lua_gettable(L, 3);
      break;
    default:
      add_replacement_text(L, b, state, s, e);
      return true;
  }
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    luaL_addlstring(b, s, static_cast<size_t>(e - s));
    return false;
  }
  if (!lua_isstring(L, -1)) {
    return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1)) != 0;
  }
  luaL_addvalue(b);
  return true;
}

int gsub(lua_State* L) {
  size_t length = 0;
  size_t pattern_length = 0;
  const char* s = luaL_checklstring(L, 1, &length);
  const char* p = luaL_checklstring(L, 2, &pattern_length);
  const int kind = lua_type(L, 3);
  const lua_Integer most = luaL_optinteger(L, 4, static_cast<lua_Integer>(length) + 1);
  luaL_argexpected(
      L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION || kind == LUA_TTABLE,
      3, "string/function/table");
  const bool anchored = *p == '^';
  if (anchored) {
    ++p;
    --pattern_length;
  }
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  MatchBudget budget(L);
  PatternMatch state(s, length, p, pattern_length, &budget);
  const char* at = s;
  const char* last = nullptr;
  lua_Integer count = 0;
  bool changed = false;
  while (count < most) {
    const char* end = state.match_at(at, p);
    if (end != nullptr && end != last) {
      ++count;
      changed = add_replacement(L, &b, state, at, end, kind) || changed;
      at = last = end;
    } else if (at < state.subject_end()) {
      luaL_addchar(&b, *at++);
    } else {
      break;
    }
    if (anchored) break;
  }
  if (!changed) {
    lua_pushvalue(L, 1);  // the subject itself, as Lua's gsub gives it
  } else {
    luaL_addlstring(&b, at, static_cast<size_t>(state.subject_end() - at));
    luaL_pushresult(&b);
  }
  lua_pushinteger(L, count);
  return 2;
}

}  // namespace

void install_budgeted_patterns(lua_State* L) {
  if (lua_getglobal(L, LUA_STRLIBNAME) != LUA_TTABLE) {
    lua_pop(L, 1);
    return;
  }
  const luaL_Reg functions[] = {{"find", guarded<find>},
                                {"match", guarded<match>},
                                {"gmatch", guarded<gmatch>},
                                {"gsub", guarded<gsub>},
                                {nullptr, nullptr}};
  luaL_setfuncs(L, functions, 0);
  lua_pop(L, 1);
}

}  // namespace luaform::lua
