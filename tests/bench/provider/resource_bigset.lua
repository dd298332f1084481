-- resource "bench_bigset": a set of nested blocks, planned with thousands of elements.
local tf = require("luaform")

return tf.resource {
  description = "A set of `items` blocks kept in state",
  schema = {
    items = tf.set_block {
      schema = {
        name = tf.string { required = true },
        value = tf.string { optional = true },
      },
    },
  },
  create = function(d)
    d:set_id("bigset")
  end,
  read = function() end,
  update = function() end,
  delete = function() end,
}
