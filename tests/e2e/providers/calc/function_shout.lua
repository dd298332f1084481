-- provider::calc::shout(text, suffixes...): a string parameter, a variadic one, and a failure
-- that names its argument.
local tf = require("luaform")

return tf.func {
  summary = "Upper-cases text",
  description = "Returns the text in capitals, followed by the suffixes.",
  params = {
    { name = "text", type = tf.string, description = "What to shout" },
  },
  variadic = { name = "suffixes", type = tf.string, description = "Appended as they are" },
  returns = tf.string,
  run = function(text, ...)
    if text == "" then
      -- MARK: empty (the next line)
      tf.fail { summary = "Nothing to shout", detail = "the text is empty", argument = 1 }
    end
    return text:upper() .. table.concat({ ... })
  end,
}
