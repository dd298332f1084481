-- resource "evolve_note" with an identity (version 0): the note's name, which replaces the
-- note when it changes.
local tf = require("luaform")
local note = require("lib.note")

return tf.resource(note.version0 {
  identity = {
    schema = { name = tf.string { required_for_import = true } },
  },
})
