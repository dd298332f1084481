---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("openssl.rand")`, built into the host.

---@class luaossl.rand
local rand = {}

--- `count` random bytes (at most 1 MiB), from OpenSSL's generator.
---@param count integer
---@return string
function rand.bytes(count) end

return rand
