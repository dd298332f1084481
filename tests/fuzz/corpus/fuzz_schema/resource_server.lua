local tf = require("luaform")
return tf.resource {
  description = "A server",
  schema_version = 1,
  schema = {
    name = tf.string { required = true, force_new = true, validate = tf.v.pattern("^%a") },
    size = tf.number { optional = true, default = 1.5 },
    on = tf.bool { optional = true, computed = true },
    tags = tf.map(tf.string) { optional = true, default = { a = "b" } },
    ports = tf.list(tf.number) { optional = true, conflicts_with = { "tags" } },
    ip = tf.string { computed = true, sensitive = true },
    disk = tf.list_block { max_items = 2, schema = { size = tf.number { required = true } } },
  },
  timeouts = { create = "10m", delete = "30s" },
  create = function() end, read = function() end, update = function() end,
  delete = function() end,
  upgrade = { [0] = function(raw) return raw end },
}
