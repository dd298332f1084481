local tf = require("luaform")
return tf.data_source {
  description = tf.markdown "An **image**",
  schema = {
    name = tf.string { optional = true, default = function() return "debian" end },
    ids = tf.list(tf.string) { computed = true, description = "ids" },
  },
  read = function() end,
}
