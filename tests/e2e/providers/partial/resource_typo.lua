-- resource "partial_typo": a typo an author left in a script no configuration uses yet. It must
-- leave out this type only, not the whole provider.
local tf = require("luaform")

return tf.resource {
  schema = { name = tf.string { required = true } },
  create = function(d)
    d:set_id(d:get("name")
  end, -- MARK: typo (the parenthesis above is not closed)
  read = function() end,
  delete = function() end,
}
