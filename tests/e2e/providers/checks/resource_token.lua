-- resource "checks_token": a value known only after apply, to feed unknowns into checks.
local tf = require("luaform")

return tf.resource {
  schema = { port = tf.number { computed = true } },
  create = function(d)
    d:set_id("token")
    d:set("port", 6000)
  end,
  read = function() end,
  delete = function() end,
}
