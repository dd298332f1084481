---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("ssl")`, built into the host: LuaSec's client half. Unlike
-- LuaSec, the peer's certificate is checked unless `verify = "none"`.

---@class luasec.params
---@field mode? "client"
---@field protocol? "any"|"tlsv1_2"|"tlsv1_3" the lowest version accepted (TLS 1.2 for "any")
---@field verify? "none"|"peer"|string[] "peer" (the default) checks the certificate against the authorities and the server's name
---@field cafile? string PEM file of the authorities trusted (default: the system's)
---@field capath? string a hashed directory of them
---@field certificate? string a client certificate (PEM, its chain after it)
---@field key? string its key
---@field servername? string the name sent as SNI and checked (default: the host connected to)
---@field options? string[] accepted and ignored

---@class luasec.connection : luasocket.tcp
local connection = {}

--- Starts TLS: true, or nil and the error ("certificate verify failed: hostname mismatch").
---@return boolean?, string?
function connection:dohandshake() end

--- The server's certificate after the handshake, or nil and the error.
---@return luaossl.x509?, string?
function connection:getpeercertificate() end

--- The name sent as SNI and required in the certificate.
---@param name string
function connection:sni(name) end

---@class luasec
local ssl = {}

--- A TLS connection over the connected `sock`, which is spent; or nil and the error.
---@param sock luasocket.tcp
---@param params? luasec.params
---@return luasec.connection?, string?
function ssl.wrap(sock, params) end

return ssl
