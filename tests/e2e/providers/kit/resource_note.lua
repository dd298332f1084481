-- resource "kit_note": a note kept in memory by the test kit's own tests; its id is its text.
local tf = require("luaform")

return tf.resource {
  description = "A note whose id is its text",
  schema = {
    text = tf.string { required = true, force_new = true, validate = tf.v.not_empty() },
    length = tf.number { computed = true },
  },
  create = function(d)
    d:set_id(d:get("text"))
    d:set("length", #d:get("text"))
  end,
  read = function() end,
  delete = function() end,
}
