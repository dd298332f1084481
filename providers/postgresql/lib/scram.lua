-- Whether a password matches the SCRAM-SHA-256 verifier PostgreSQL keeps for a role
-- ("SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>", base64).
local digest = require("openssl.digest")
local hmac = require("openssl.hmac")
local kdf = require("openssl.kdf")
local mime = require("mime")

local M = {}

function M.matches(verifier, password)
  local iterations, salt, stored_key =
    tostring(verifier or ""):match("^SCRAM%-SHA%-256%$(%d+):([^$]+)%$([^:]+):")
  if not iterations then
    return false
  end
  local salted = kdf.derive { type = "PBKDF2", md = "sha256", pass = password,
    salt = mime.unb64(salt), iter = tonumber(iterations), outlen = 32 }
  local client_key = hmac.new(salted, "sha256"):final("Client Key")
  return mime.b64(digest.new("sha256"):final(client_key)) == stored_key
end

return M
