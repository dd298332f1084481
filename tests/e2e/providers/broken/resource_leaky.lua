-- resource "broken_leaky": its messages quote the sensitive password it is given, as careless
-- scripts do; the diagnostics the CLI prints must show "***" instead.
local tf = require("luaform")

return tf.resource {
  description = "Quotes its password in every error",
  schema = {
    name = tf.string { required = true, force_new = true },
    password = tf.string {
      required = true,
      sensitive = true,
      validate = function(value)
        if value:find("weak") then
          return "password " .. value .. " is too weak"
        end
        return nil
      end,
    },
  },
  create = function(d)
    error("login refused for password " .. d:get("password")) -- MARK: leaky
  end,
  read = function() end,
  delete = function() end,
}
