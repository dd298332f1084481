---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("socket.unix")`, built into the host: `socket.unix()` (or
-- `.stream()`) makes a socket whose connect takes a path. Not on Windows.

---@class luasocket.unix
---@overload fun(): luasocket.tcp
local unix = {}

---@return luasocket.tcp
function unix.stream() end

return unix
