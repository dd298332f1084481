---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("mime")`, built into the host: LuaSocket's base64.

---@class luasocket.mime
local mime = {}

---@param data string
---@return string
function mime.b64(data) end

---@param text string
---@return string
function mime.unb64(text) end

return mime
