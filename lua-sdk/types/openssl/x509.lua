---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("openssl.x509")`, built into the host: luaossl's certificates,
-- the same objects a TLS socket's getpeercertificate() gives.

---@class luaossl.x509
local certificate = {}

---@return string
function certificate:pem() end

--- The signature algorithm's long name, such as "sha256WithRSAEncryption".
---@return string
function certificate:getsignaturename() end

--- The digest of the certificate (DER): hex, or raw bytes with format "s". `name` is a digest or a signature algorithm's name.
---@param name? string
---@param format? "s"|"x"
---@return string
function certificate:digest(name, format) end

---@class luaossl.x509_module
local x509 = {}

---@param pem string
---@param format? "PEM"
---@return luaossl.x509
function x509.new(pem, format) end

return x509
