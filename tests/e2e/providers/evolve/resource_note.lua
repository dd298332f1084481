-- resource "evolve_note", schema version 0: a note file whose size is kept as text. The test
-- swaps in versions/*.lua to play a provider upgrade.
local tf = require("luaform")
local note = require("lib.note")

return tf.resource(note.version0())
