-- provider::calc::broken(n): a script error, and a result of the wrong type.
local tf = require("luaform")

return tf.func {
  params = { { name = "n", type = tf.number } },
  returns = tf.number,
  run = function(n)
    if n == 0 then
      local missing = nil
      return missing.field -- MARK: nil-index
    end
    return { n }
  end,
}
