-- resource "slowload_fine": an ordinary resource beside one that never loads.
local tf = require("luaform")

return tf.resource {
  description = "Loads and serves",
  schema = { name = tf.string { required = true } },
  create = function(d)
    d:set_id(d:get("name"))
  end,
  read = function() end,
  delete = function() end,
}
