// The module `require("luaform_exec")` returns (also `tf.exec`): running programs from a script,
// for providers that manage something through its command-line tool.
//
//   run { "git", "-C", dir, "status", stdin = ..., env = { NAME = "v" | true }, dir = ...,
//         timeout = "30s", allow = { 1 }, max_output = bytes, shell = false, secrets = { ... } }
//       -> { status = N, stdout = "...", stderr = "..." }
//   find(name)  -> the path the host would run for `name` (looked up on its PATH), or nil
//
// The array part is the program and its arguments, passed as they are: no shell reads them
// unless `shell = true`, which runs the one string given with /bin/sh -c (cmd.exe /c on
// Windows). The program's environment holds only what `env` names (`true` takes the host's
// value). The program runs in a process group (a job object on Windows) of its own; StopProvider,
// the operation's deadline, `timeout` and more output than allowed end it with its children and
// raise an error. An exit status other than 0 and those of `allow` raises an error quoting the
// start of stderr; `secrets` are hidden, like sensitive values, wherever an error or log line
// shows them.
#pragma once

#include <lua.hpp>

namespace luaform::lua {

// Installed in package.preload as a C function, so the sandbox's no-C-loaders rule holds.
int open_exec_module(lua_State* L);

}  // namespace luaform::lua
