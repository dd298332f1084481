---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("luaform_encoding")` (built into the host), behind `tf.base64`,
-- `tf.hash` and `tf.uuid`.

---@class luaform.encoding
local encoding = {}

---@param bytes string
---@return string
function encoding.base64_encode(bytes) end

---@param text string
---@return string
function encoding.base64_decode(text) end

---@param bytes string
---@return string
function encoding.sha1(bytes) end

---@param bytes string
---@return string
function encoding.sha256(bytes) end

---@param bytes string
---@return string
function encoding.sha512(bytes) end

---@param bytes string
---@return string
function encoding.md5(bytes) end

---@return string
function encoding.uuid() end

return encoding
