local tf = require("luaform")
return tf.func {
  summary = "Splits",
  params = { { name = "text", type = tf.string }, { name = "n", type = tf.number, allow_null = true } },
  variadic = { name = "rest", type = tf.dynamic },
  returns = tf.list(tf.string),
  run = function(text) return { text } end,
}
