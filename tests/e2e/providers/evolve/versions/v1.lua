-- resource "evolve_note", schema version 1: the size is now a number called length.
local tf = require("luaform")
local note = require("lib.note")

local functions = note.functions(function(d, text)
  d:set("length", #text)
end)

return tf.resource {
  schema_version = 1,
  schema = {
    name = tf.string { required = true, force_new = true },
    text = tf.string { required = true },
    length = tf.number { computed = true },
  },
  upgrade = {
    [0] = function(raw)
      raw.length = tonumber(raw.size)
      raw.size = nil
      return raw
    end,
  },
  create = functions.create,
  read = functions.read,
  delete = functions.delete,
}
