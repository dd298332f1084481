-- resource "badsyntax_thing": this file does not parse.
local tf = require("luaform")
local broken = = 1 -- MARK: syntax

return tf.resource {
  schema = { name = tf.string { required = true } },
  create = function(d) d:set_id(d:get("name")) end,
  read = function() end,
  delete = function() end,
}
