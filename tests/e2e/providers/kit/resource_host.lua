-- resource "kit_host": a host name whose "API" spells it with a trailing dot and keeps no empty
-- note: the id is the name, so an import finds it again from the id alone.
local tf = require("luaform")

return tf.resource {
  description = "A host name, read back as the API spells it",
  schema = {
    host = tf.string {
      required = true,
      force_new = true,
      diff_suppress = function(_, old, new)
        return old:gsub("%.$", "") == new:gsub("%.$", "")
      end,
    },
    note = tf.string { optional = true },
  },
  identity = { schema = { host = tf.string { required_for_import = true } } },
  create = function(d)
    d:set_id(d:get("host"))
  end,
  read = function(d)
    d:set("host", d:id() .. ".")
  end,
  delete = function() end,
  import = function(d)
    local identity = d:identity()
    if identity then
      d:set_id(identity.host)
    end
  end,
}
