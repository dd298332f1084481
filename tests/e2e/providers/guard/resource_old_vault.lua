-- resource "guard_old_vault": a deprecated resource type that still works. It declares no
-- destroy check, so its destroys are planned as they always were.
local tf = require("luaform")

return tf.resource {
  description = "The vault before guard_vault",
  deprecated = "guard_old_vault is deprecated: use guard_vault",
  schema = {
    name = tf.string { required = true, force_new = true },
  },
  create = function(d)
    d:set_id(d:get("name"))
  end,
  read = function() end,
  delete = function() end,
}
