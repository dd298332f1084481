// The module `require("lpeg")` returns: LPeg, Roberto Ierusalimschy's parsing expression grammars
// for Lua, compiled from Debian's source package into the host (host/lua/lpeg.cmake), so that
// pure-Lua libraries built on it (pgmoon's array decoding) load unmodified.
//
// It is LPeg 1.0.2 as its manual describes it, with one difference: a match is on the budget
// Lua's string patterns are on here (pattern_matcher.h). LPeg matches inside one C call, and a
// grammar that backtracks can take exponential time; each instruction of its matching machine
// counts a step, and every few thousand steps the match looks at StopProvider, the operation's
// deadline and a two-second limit, and ends with an error at the script's line when one is
// reached. Memory is the state's: LPeg allocates its trees, code and backtrack stack as Lua
// userdata. The debugging printers (lpeg.ptree, lpeg.pcode) raise an error, as in LPeg's own
// build without LPEG_DEBUG: the host's standard output is the plugin protocol's.
#pragma once

#include <lua.hpp>

namespace luaform::lua {

// Installed in package.preload as a C function, so the sandbox's no-C-loaders rule holds.
int open_lpeg_module(lua_State* L);

}  // namespace luaform::lua

// Called by LPeg's matching machine at each instruction (the one line host/lua/lpeg.cmake adds
// to lpvm.c); raises a Lua error when the running match's budget is spent. Outside a match that
// open_lpeg_module's `match` started it does nothing.
void luaform_lpeg_step(lua_State* L);
