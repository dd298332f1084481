-- provider "pulp": Pulp 3's REST API served from its own description (pulp-api.json, as
-- pulpcore 3.123.1 serves it at /pulp/api/v3/docs/api.json; tests/e2e/support/pulp_service.py
-- runs that server), with nothing said in Lua. Pulp names its objects by links (pulp_href) and
-- answers most writes 202 with a task: both are conventions of the mapping.
local tf = require("luaform")

return tf.openapi.provider { document = "pulp-api.json", env_prefix = "PULP" }
