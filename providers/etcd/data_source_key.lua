-- data "etcd_key": the value of one key.
local tf = require("luaform")

return tf.data_source {
  description = "A key's value",
  schema = {
    key = tf.string { required = true, description = "The key (after the provider's prefix)" },
    value = tf.string { computed = true },
    version = tf.number { computed = true },
    mod_revision = tf.number { computed = true },
  },
  read = function(d, etcd)
    local entry = etcd:get(d:get("key"))
    if entry == nil then
      tf.fail { summary = "No such key", detail = ("etcd has no key %q"):format(d:get("key")),
        path = "key" }
    end
    d:set_id(entry.key)
    d:set("value", entry.value)
    d:set("version", entry.version)
    d:set("mod_revision", entry.mod_revision)
  end,
}
