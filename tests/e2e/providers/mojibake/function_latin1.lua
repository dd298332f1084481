-- provider::mojibake::latin1(word): fails with a message in Latin-1 ("\233" is é), as a
-- function quoting a file in that encoding would.
local tf = require("luaform")

return tf.func {
  params = { { name = "word", type = tf.string } },
  returns = tf.string,
  run = function(word)
    tf.fail(word .. " is not caf\233")
  end,
}
