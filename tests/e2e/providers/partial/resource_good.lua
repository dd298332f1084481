-- resource "partial_good": loads and works beside a script that does not.
local tf = require("luaform")

return tf.resource {
  description = "Works",
  schema = { name = tf.string { required = true } },
  create = function(d)
    d:set_id(d:get("name"))
  end,
  read = function() end,
  delete = function() end,
}
