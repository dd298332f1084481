-- resource "broken_boom": create raises an error with error() before anything is set, so the
-- CLI must report the script and line and save nothing.
local tf = require("luaform")

return tf.resource {
  description = "Fails on create",
  schema = {
    name = tf.string { required = true, force_new = true },
  },
  create = function(d)
    error("create refused for " .. d:get("name")) -- MARK: boom
  end,
  read = function() end,
  delete = function() end,
}
