-- resource "partial_pool": a declaration the SDK accepts but the schema's rules refuse once the
-- script has run (requires_replace_if inside a set block, whose elements have no address). It
-- must leave out this type only, reported at the attribute's line, not take the provider down.
local tf = require("luaform")

return tf.resource {
  schema = {
    name = tf.string { required = true },
    member = tf.set_block {
      schema = {
        weight = tf.number { -- MARK: weight
          optional = true,
          requires_replace_if = function() return true end,
        },
      },
    },
  },
  create = function(d) d:set_id(d:get("name")) end,
  read = function() end,
  delete = function() end,
}
