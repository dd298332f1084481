-- resource "mojibake_word": a word whose create succeeds with warnings that are not UTF-8, as a
-- script's are when it quotes a Latin-1 file or cuts a string inside a character: "caf\195" is
-- "café" cut after the first byte of its é, "\233t\233" is "été" in Latin-1.
local tf = require("luaform")

return tf.resource {
  description = "A word, created with warnings that are not UTF-8",
  schema = {
    text = tf.string { required = true, force_new = true },
    tags = tf.map(tf.string) { optional = true, force_new = true },
  },
  create = function(d)
    d:set_id(d:get("text"))
    tf.warn("caf\195")
    tf.warn {
      summary = "Latin-1 \233t\233",
      detail = "about the tag caf\195",
      path = "tags.caf\195",
    }
  end,
  read = function() end,
  delete = function() end,
}
