-- provider "objects": the object API of tests/e2e/support/object_api.py, served from its
-- description (objects.yaml) with nothing said in Lua.
local tf = require("luaform")

return tf.openapi.provider { document = "objects.yaml", env_prefix = "OBJECTS" }
