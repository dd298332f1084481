---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("luaform_diagnostics")` (built into the host), behind `tf.fail`
-- and `tf.warn`.

---@class luaform.diagnostics
local diagnostics = {}

--- Ends the operation with an error diagnostic.
---@param diagnostic string|luaform.DiagnosticSpec
---@return never
function diagnostics.fail(diagnostic) end

--- Adds a warning diagnostic.
---@param diagnostic string|luaform.DiagnosticSpec
function diagnostics.warn(diagnostic) end

return diagnostics
