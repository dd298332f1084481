-- resource "guard_vault": refuses to be destroyed while deletion_protection is on, and warns when
-- a shared vault is destroyed (a destroy-time check, plan_destroy). Its legacy_tag argument is
-- deprecated. The vaults live in the state only.
local tf = require("luaform")

return tf.resource {
  description = "A vault that can be protected from destroy plans",
  schema = {
    name = tf.string { required = true, force_new = true },
    deletion_protection = tf.bool { optional = true, default = false },
    legacy_tag = tf.string { optional = true, deprecated = "use name instead of legacy_tag" },
  },
  create = function(d)
    d:set_id(d:get("name"))
  end,
  read = function() end,
  update = function() end,
  delete = function() end,
  plan_destroy = function(d)
    if d:get("deletion_protection") then
      tf.fail {
        summary = "Vault " .. d:get("name") .. " is protected from deletion",
        detail = "Set deletion_protection = false and apply, then destroy it.",
      }
    end
    if d:get("name"):find("^shared") then
      tf.warn("Vault " .. d:get("name") .. " is shared: other teams lose it too")
    end
  end,
}
