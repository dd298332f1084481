-- A provider for the credentials service in tests/e2e/support/lease_api.py. One instance, without a
-- token, opens leases; another, configured with the token of an open lease, writes notes.
local tf = require("luaform")

return tf.provider {
  description = "Leases and notes",
  schema = {
    url = tf.string { required = true },
    token = tf.string { optional = true, sensitive = true },
  },
  configure = function(config)
    return tf.http.client { base_url = config.url, bearer_token = config.token, retries = 0 }
  end,
}
