-- provider "gated": json-server's posts behind an OAuth 2.0 gateway, served from their
-- description (gated.yaml), whose security scheme is the client credentials flow; nothing
-- said in Lua.
local tf = require("luaform")

return tf.openapi.provider { document = "gated.yaml", env_prefix = "GATED" }
