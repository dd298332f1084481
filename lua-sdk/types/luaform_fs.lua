---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `tf.fs` (`require("luaform_fs")`, built into the host). Modes are octal
-- strings such as "0644"; failures raise an error naming the path.

--- What `tf.fs.stat` finds.
---@class luaform.FileInfo
---@field type "file"|"directory"|"other"
---@field mode? string permission bits in octal ("0644"); nil on Windows
---@field size integer bytes
---@field modified integer when its contents last changed, in seconds since 1970 (UTC)

---@class luaform.fs
local fs = {}

--- What is at `path`, or nil when nothing is.
---@param path string
---@return luaform.FileInfo?
function fs.stat(path) end

--- Sets the permission bits exactly (the umask does not apply).
---@param path string
---@param mode string
function fs.chmod(path, mode) end

--- Creates the directory and its missing parents with `mode`; one already there is left alone.
---@param path string
---@param mode string
function fs.mkdir(path, mode) end

--- Removes an empty directory.
---@param path string
function fs.rmdir(path) end

--- The names in a directory (without `.` and `..`), sorted.
---@param path string
---@return string[]
function fs.list(path) end

return fs
