-- provider::calc::sorted(set, descending): a set in, a list out; a nullable flag.
local tf = require("luaform")

return tf.func {
  params = {
    { name = "items", type = tf.set(tf.string) },
    { name = "descending", type = tf.bool, allow_null = true },
  },
  returns = tf.list(tf.string),
  run = function(items, descending)
    table.sort(items, function(a, b)
      if descending then
        return a > b
      end
      return a < b
    end)
    return items
  end,
}
