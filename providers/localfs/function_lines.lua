-- provider::localfs::lines(content): text split into lines the way data "localfs_file" splits a
-- file, for content that is not on disk (yet).
local tf = require("luaform")
local text = require("lib.text")

return tf.func {
  summary = "Splits text into lines",
  description = tf.markdown [[
Splits `content` at each `"\n"`. A final newline does not start another, empty line, so
`lines("a\nb\n")` is `["a", "b"]`, which is what `split` does not give. A `"\r"` before a
newline is kept.]],
  params = {
    { name = "content", type = tf.string, description = "The text to split" },
  },
  returns = tf.list(tf.string),
  run = function(content)
    return text.split_lines(content)
  end,
}
