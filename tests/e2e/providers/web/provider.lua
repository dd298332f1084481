-- A provider for the object API in tests/e2e/support/object_api.py, written the way an author would
-- write one for a JSON API: everything HTTP goes through tf.http.
local tf = require("luaform")

return tf.provider {
  description = "Objects in a JSON API",
  schema = {
    url = tf.string { required = true },
    token = tf.string { optional = true, sensitive = true },
    username = tf.string { optional = true },
    password = tf.string { optional = true, sensitive = true },
    retries = tf.number { optional = true },
    timeout = tf.string { optional = true },
    ca_file = tf.string { optional = true },
    client_cert = tf.string { optional = true },
    client_key = tf.string { optional = true },
    insecure = tf.bool { optional = true },
    proxy = tf.string { optional = true },
  },
  configure = function(config)
    -- Careless on purpose: the log module must hide the sensitive token.
    tf.log.info("configuring with token " .. tostring(config.token), { token = config.token })
    return tf.http.client {
      base_url = config.url,
      bearer_token = config.token,
      username = config.username,
      password = config.password,
      retries = config.retries or 3,
      retry_wait_min = 0.05,
      retry_wait_max = "5s",
      timeout = config.timeout,
      ca_file = config.ca_file,
      client_cert = config.client_cert,
      client_key = config.client_key,
      insecure = config.insecure,
      proxy = config.proxy,
    }
  end,
}
