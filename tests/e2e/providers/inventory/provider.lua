-- A provider whose objects are records in files under a directory: real side effects on disk
-- that a test can inspect and change behind Terraform's back.
local tf = require("luaform")
local store = require("lib.store")

return tf.provider {
  description = "Records kept as files in a directory",
  schema = {
    root = tf.string { required = true, description = "Directory that holds the records" },
  },
  configure = function(config)
    return store.new(config.root)
  end,
}
