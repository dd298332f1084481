-- luacheck configuration (luacheck reads it in the directory it is run from). Scripts run in
-- luaform's sandbox: every global is read-only, and only this much of the standard library is
-- there (see "The sandbox" in luaform's authoring guide).
std = "luaform"
stds.luaform = {
  read_globals = {
    "_G", "_VERSION", "assert", "collectgarbage", "error", "getmetatable", "ipairs", "load",
    "next", "pairs", "pcall", "print", "rawequal", "rawget", "rawlen", "rawset", "require",
    "select", "setmetatable", "tonumber", "tostring", "type", "warn", "xpcall",
    "coroutine", "math", "string", "table", "utf8",
    io = { fields = { "open", "lines", "type" } },
    os = { fields = { "clock", "date", "difftime", "getenv", "remove", "rename", "time" } },
    package = { fields = { "config", "cpath", "loaded", "path", "preload", "searchers",
      "searchpath" } },
  },
}
-- Test files are run by --test as your own code, with the whole io and os libraries.
files["tests"] = { std = "lua54" }
max_line_length = 100
-- .luaform/ holds luaform's own files (the type definitions), not this provider's code.
exclude_files = { ".luaform" }
