// The module `require("luaform_diagnostics")`, which the SDK exposes as `tf.fail` and
// `tf.warn`: errors and warnings with a summary, a detail and the attribute they are about, so
// that the CLI shows them at that attribute's line of the configuration.
//
//   fail { summary =, detail =, path = }   raises an error ending the operation; in a
//   fail(message)                          resource function it becomes a diagnostic with that
//                                          summary (a message alone is the summary), the
//                                          detail followed by where it was raised, and `path`
//                                          (a dotted address such as "disk.0.size")
//   warn { summary =, detail =, path = }   records a warning; the operation goes on
//   warn(message)
#pragma once

#include <lua.hpp>

namespace luaform::lua {

// Installed in package.preload as a C function, so the sandbox's no-C-loaders rule holds.
int open_diagnostics_module(lua_State* L);

}  // namespace luaform::lua
