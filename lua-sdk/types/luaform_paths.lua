---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("luaform_paths")`, behind `tf.http.path`, `escape` and
-- `unescape`.

---@class luaform.paths
local paths = {}

---@param ... string|number
---@return string
function paths.path(...) end

---@param segment string|number
---@return string
function paths.escape(segment) end

---@param text string
---@return string
function paths.unescape(text) end

return paths
