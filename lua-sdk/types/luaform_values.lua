---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("luaform_values")` (built into the host), where `tf.unknown`
-- comes from.

---@class luaform.values
local values = {}

--- "Known after apply" (the same value as `tf.unknown`).
---@type luaform.Unknown
values.unknown = nil

return values
