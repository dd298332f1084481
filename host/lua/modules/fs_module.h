// The module `require("luaform_fs")` returns (also `tf.fs`): what a provider of local files
// needs beyond io.open and os.remove, which Lua's standard library lacks. Modes are octal
// strings as Terraform configurations write them ("0644"). Every failure raises an error that
// names the path and the system's reason.
//
//   stat(path)          nil when nothing is there, else { type = "file" | "directory" |
//                       "other", mode = "0644", size = bytes, modified = seconds since 1970
//                       } (symbolic links followed)
//   chmod(path, mode)   sets the permission bits exactly (the umask does not apply)
//   mkdir(path, mode)   creates the directory and any missing parents with that mode; an
//                       existing directory is left as it is
//   rmdir(path)         removes an empty directory
#pragma once

#include <lua.hpp>

namespace luaform::lua {

// Installed in package.preload as a C function, so the sandbox's no-C-loaders rule holds.
int open_fs_module(lua_State* L);

}  // namespace luaform::lua
