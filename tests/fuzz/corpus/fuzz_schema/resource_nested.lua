local tf = require("luaform")
return tf.resource {
  schema = {
    rules = tf.list_nested { optional = true, schema = {
      port = tf.number { required = true },
      cidrs = tf.set(tf.string) { optional = true },
      meta = tf.single_nested { optional = true, schema = { k = tf.string { optional = true } } },
    } },
    boot = tf.single_block { schema = { image = tf.string { optional = true, default = "x" } } },
    extra = tf.set_block { min_items = 1, schema = {
      inner = tf.list_block { schema = { v = tf.map(tf.list(tf.bool)) { optional = true } } },
    } },
    settings = tf.object { a = tf.string, b = tf.list(tf.number) } { optional = true },
  },
  identity = { version = 1, schema = { name = tf.string { required_for_import = true } } },
  create = function() end, read = function() end, delete = function() end,
}
