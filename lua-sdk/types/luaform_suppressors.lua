---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `tf.suppress` (`require("luaform_suppressors")`): ready-made
-- `diff_suppress` functions.

---@class luaform.suppressors
local suppress = {}

--- Strings equal without regard to case.
---@type luaform.Suppressor
suppress.case_insensitive = nil

--- JSON texts with the same content (key order, spacing and number spelling aside).
---@type luaform.Suppressor
suppress.equivalent_json = nil

--- Strings equal once leading and trailing whitespace is removed.
---@type luaform.Suppressor
suppress.surrounding_space = nil

--- Says "same" when any of the given suppressors does.
---@param ... luaform.Suppressor
---@return luaform.Suppressor
function suppress.any(...) end

return suppress
