local tf = require("luaform")
return tf.provider {
  schema = {
    endpoint = tf.string { optional = true, default = tf.env({ "EP" }, "http://x") },
    token = tf.string { optional = true, sensitive = true },
  },
  configure = function(config) return config end,
}
