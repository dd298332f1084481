---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `tf.time` (`require("luaform_time")`, built into the host).

---@class luaform.time
local time = {}

--- Waits; StopProvider and the operation's timeout end the wait with an error.
---@param duration luaform.Duration
function time.sleep(duration) end

--- A monotonic clock, in seconds.
---@return number
function time.now() end

--- A duration in seconds (`"1h30m"` is 5400).
---@param duration luaform.Duration
---@return number
function time.seconds(duration) end

--- Seconds as a duration text (`90` is `"1m30s"`).
---@param seconds number
---@return string
function time.format(seconds) end

--- An RFC 3339 timestamp as seconds since 1970 (UTC); an error when it is not one.
---@param text string
---@return number
function time.parse_rfc3339(text) end

--- Seconds since 1970 (default: now) as an RFC 3339 timestamp in UTC.
---@param seconds? number
---@return string
function time.rfc3339(seconds) end

return time
