---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `tf.exec` (`require("luaform_exec")`, built into the host): programs run
-- from an argument list, with only the environment a script names.

--- What `tf.exec.run` is given: the program and its arguments in the array part, options by name.
---@class luaform.ExecCommand
---@field [integer] string|number the program (a path, or a name looked up on PATH) and its arguments
---@field stdin? string written to the program's standard input, which is then closed
---@field env? table<string, string|number|true> the program's whole environment; `true` takes the host's value
---@field dir? string the working directory
---@field timeout? number|string seconds or a duration such as "30s"; the operation's own deadline holds too
---@field allow? integer[] exit statuses besides 0 that are not errors
---@field max_output? integer bytes of stdout and stderr together past which the program is ended (default 64 MiB, within the memory limit)
---@field shell? boolean run the one string given with /bin/sh -c (cmd.exe /c on Windows)
---@field secrets? string[] texts hidden wherever an error or log line of this call shows them

--- What a program gave back.
---@class luaform.ExecResult
---@field status integer the exit status
---@field stdout string
---@field stderr string

---@class luaform.exec
local exec = {}

--- Runs a program and waits for it. An exit status other than 0 and those of `allow` raises an error quoting the start of stderr; a stop, a timeout or too much output ends the program with its children and raises an error.
---@param command luaform.ExecCommand
---@return luaform.ExecResult
function exec.run(command) end

--- The path `run` would start for `name` (looked up on the host's PATH, or on `search_path`), or nil when there is none.
---@param name string
---@param search_path? string
---@return string?
function exec.find(name, search_path) end

return exec
