-- resource "badsyntax_claims_id": declares "id", which every object has already.
local tf = require("luaform")

return tf.resource {
  schema = {
    id = tf.string { optional = true },
  },
  create = function(d) d:set_id("x") end,
  read = function() end,
  delete = function() end,
}
