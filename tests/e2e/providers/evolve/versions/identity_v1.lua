-- resource "evolve_note" with identity version 1: the name is now called note, so the script
-- sets it (no attribute has that name), and identity.upgrade reads identities stored by
-- version 0.
local tf = require("luaform")
local note = require("lib.note")

local functions = note.functions(function(d, text)
  note.size_as_text(d, text)
  d:set_identity { note = d:get("name") }
end)

return tf.resource(note.version0 {
  create = functions.create,
  read = functions.read,
  identity = {
    version = 1,
    schema = { note = tf.string { required_for_import = true } },
    upgrade = {
      [0] = function(raw)
        return { note = raw.name }
      end,
    },
  },
  import = function(d)
    d:set_id(d:identity().note)
  end,
})
