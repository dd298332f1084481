---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("openssl.kdf")`, built into the host: luaossl's derive, PBKDF2.

---@class luaossl.kdf_options
---@field type "PBKDF2"
---@field md? string the digest (sha1 by default)
---@field pass string
---@field salt string
---@field iter integer 1 to 10,000,000
---@field outlen integer bytes, 1 to 1,024

---@class luaossl.kdf
local kdf = {}

--- The derived key, as raw bytes.
---@param options luaossl.kdf_options
---@return string
function kdf.derive(options) end

return kdf
