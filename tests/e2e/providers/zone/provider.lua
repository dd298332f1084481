-- A provider for a DNS API served by tests/e2e/support/object_api.py, which stores record sets in
-- its own spelling, as PowerDNS does: addresses and host names lower-cased.
local tf = require("luaform")

return tf.provider {
  description = "Record sets in a DNS API",
  schema = { url = tf.string { required = true } },
  configure = function(config)
    return tf.http.client { base_url = config.url, retries = 0 }
  end,
}
