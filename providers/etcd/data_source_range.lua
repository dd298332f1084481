-- data "etcd_range": every key under a prefix, with its value.
local tf = require("luaform")

return tf.data_source {
  description = "The keys under a prefix",
  schema = {
    prefix = tf.string {
      required = true,
      description = "Keys that start with this (after the provider's prefix)",
    },
    values = tf.map(tf.string) { computed = true, description = "Key => value" },
    keys = tf.list(tf.string) { computed = true, description = "The keys, in order" },
  },
  read = function(d, etcd)
    local values, keys = {}, {}
    for i, entry in ipairs(etcd:range(d:get("prefix"))) do
      values[entry.key] = entry.value
      keys[i] = entry.key
    end
    d:set_id(d:get("prefix"))
    d:set("values", values)
    d:set("keys", keys)
  end,
}
