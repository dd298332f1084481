---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `tf.log` (`require("luaform_log")`, built into the host): lines in the
-- CLI's log (TF_LOG), with sensitive values hidden.

---@class luaform.log
local log = {}

---@param message string
---@param fields? table<string, any>
function log.trace(message, fields) end

---@param message string
---@param fields? table<string, any>
function log.debug(message, fields) end

---@param message string
---@param fields? table<string, any>
function log.info(message, fields) end

---@param message string
---@param fields? table<string, any>
function log.warn(message, fields) end

---@param message string
---@param fields? table<string, any>
function log.error(message, fields) end

return log
