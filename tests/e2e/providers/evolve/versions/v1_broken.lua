-- resource "evolve_note", schema version 1, with an upgrade that fails.
local tf = require("luaform")

return tf.resource {
  schema_version = 1,
  schema = {
    name = tf.string { required = true, force_new = true },
    text = tf.string { required = true },
    length = tf.number { computed = true },
  },
  upgrade = {
    [0] = function(raw)
      error("cannot upgrade note " .. raw.id) -- MARK: upgrade
    end,
  },
  create = function() end,
  read = function() end,
  delete = function() end,
}
