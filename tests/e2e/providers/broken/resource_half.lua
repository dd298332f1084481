-- resource "broken_half": create records an id and then fails, so the object exists but is
-- tainted.
local tf = require("luaform")

return tf.resource {
  description = "Fails on create after setting the id",
  schema = {
    name = tf.string { required = true, force_new = true },
  },
  create = function(d)
    d:set_id(d:get("name"))
    error("failed after the id was set") -- MARK: half
  end,
  read = function() end,
  delete = function() end,
}
