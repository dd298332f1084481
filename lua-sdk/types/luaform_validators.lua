---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `tf.v` (`require("luaform_validators")`): validators for an attribute's
-- `validate` option. Each constructor returns a `luaform.Validator`.

---@class luaform.validators
local v = {}

--- Numbers from `min` to `max`, both included.
---@param min number
---@param max number
---@return luaform.Validator
function v.between(min, max) end

--- Numbers of at least `min`.
---@param min number
---@return luaform.Validator
function v.at_least(min) end

--- Numbers of at most `max`.
---@param max number
---@return luaform.Validator
function v.at_most(max) end

--- Whole numbers.
---@return luaform.Validator
function v.integer() end

--- Strings of `min` to `max` characters, or collections of `min` to `max` elements.
---@param min integer
---@param max integer
---@return luaform.Validator
function v.length_between(min, max) end

--- Strings other than `""`.
---@return luaform.Validator
function v.not_empty() end

--- Options of `tf.v.one_of`.
---@class (exact) luaform.OneOfOptions : { ignore_case?: any, [string]: nil }
---@field ignore_case? boolean compare strings without regard to case

--- One of the listed values.
---@param allowed any[]
---@param options? luaform.OneOfOptions
---@return luaform.Validator
function v.one_of(allowed, options) end

--- Strings in which the Lua pattern is found (anchor it with `^...$`); `message` replaces the
--- default complaint.
---@param lua_pattern string
---@param message? string
---@return luaform.Validator
function v.pattern(lua_pattern, message) end

--- Lists, sets and maps whose every element passes `validator`.
---@param validator luaform.Validator
---@return luaform.Validator
function v.each(validator) end

--- Values that pass every validator (the first problem is reported).
---@param ... luaform.Validator
---@return luaform.Validator
function v.all(...) end

--- Values that pass at least one of the validators.
---@param ... luaform.Validator
---@return luaform.Validator
function v.any(...) end

return v
