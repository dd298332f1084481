-- provider "NAME", served from an OpenAPI description (`document` below), which gives every
-- type, its attributes and its requests. Say here only what the description cannot ("From an
-- OpenAPI description" in luaform's authoring guide); `./terraform-provider-NAME --check`
-- lists the types it serves and every operation no type claims, with the reason.
local tf = require("luaform")

return tf.openapi.provider {
  document = "@DOCUMENT@",
  env_prefix = "@UPPER@",
  -- Per type, by its name without "NAME_", for example:
  -- resources = {
  --   zone = { attributes = { name = { force_new = true }, key = { sensitive = true } } },
  --   audit_log = false,  -- left out
  -- },
}
