---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("openssl.digest")`, built into the host: luaossl's digests.

---@class luaossl.digest_context
local context = {}

---@param ... string
---@return luaossl.digest_context
function context:update(...) end

--- The digest of everything given, as raw bytes.
---@param data? string
---@return string
function context:final(data) end

---@class luaossl.digest
local digest = {}

---@param name? string "sha256", "sha1" (the default), "sha512", "md5", ...
---@return luaossl.digest_context
function digest.new(name) end

return digest
