-- provider::calc::describe(value): any value in, a value of its own making out.
local tf = require("luaform")

return tf.func {
  summary = "Says what a value is",
  params = {
    { name = "value", type = tf.dynamic, allow_null = true, description = "Anything" },
  },
  returns = tf.dynamic,
  run = function(value)
    if value == nil then
      return { kind = "null" }
    end
    return { kind = type(value), value = value }
  end,
}
