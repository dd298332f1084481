---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("openssl.hmac")`, built into the host: luaossl's HMAC.

---@class luaossl.hmac
local hmac = {}

---@param key string
---@param name? string the digest: "sha256", "sha1" (the default), ...
---@return luaossl.digest_context
function hmac.new(key, name) end

return hmac
