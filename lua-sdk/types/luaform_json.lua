---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `tf.json` (`require("luaform_json")`, built into the host).

--- JSON `null` as `tf.json.decode` gives it and `tf.json.encode` takes it.
---@class luaform.JsonNull

---@class luaform.json
local json = {}

--- JSON `null`.
---@type luaform.JsonNull
json.null = nil

--- The value of a JSON text as Lua values; invalid text is an error saying where.
---@param text string
---@return any
function json.decode(text) end

--- JSON text with sorted keys; `{}` is an object unless marked with `tf.json.array()`.
---@param value any
---@return string
function json.encode(value) end

--- Marks `t` (or a new table) as an array, so that an empty one encodes as `[]`.
---@generic T: table
---@param t? T
---@return T
function json.array(t) end

--- True when both texts are JSON with the same content.
---@param a string
---@param b string
---@return boolean
function json.equivalent(a, b) end

return json
