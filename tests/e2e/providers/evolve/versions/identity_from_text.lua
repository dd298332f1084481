-- resource "evolve_note" with a broken identity: the text, which an update changes in place,
-- so the object's identity would change during its life.
local tf = require("luaform")
local note = require("lib.note")

return tf.resource(note.version0 {
  update = note.functions(note.size_as_text).update,
  identity = {
    schema = { text = tf.string { required_for_import = true } },
  },
})
