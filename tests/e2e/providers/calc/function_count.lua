-- provider::calc::count(items): how many items, known even while some of them are not.
local tf = require("luaform")

return tf.func {
  params = { { name = "items", type = tf.list(tf.string), allow_unknown = true } },
  returns = tf.number,
  run = function(items)
    if items == tf.unknown then
      return tf.unknown
    end
    return #items
  end,
}
