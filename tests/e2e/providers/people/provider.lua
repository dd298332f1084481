-- A provider for the object API in tests/e2e/support/object_api.py, written the way authors
-- write one for a JSON API: arguments sent as the values d:get gives, answers set back as they
-- come.
local tf = require("luaform")

return tf.provider {
  description = "People, servers and logins in a JSON API",
  schema = {
    url = tf.string { required = true },
    token = tf.string { optional = true, sensitive = true },
  },
  configure = function(config, unknown)
    if unknown.url or unknown.token then
      -- It depends on a resource not created yet. The CLI configures the provider again, with
      -- every value known, before it applies; until then there is no client to make.
      tf.log.info("configure: the token or url is not known yet")
      return nil
    end
    tf.log.info("configure: ready", { with_token = config.token ~= nil })
    return tf.http.client { base_url = config.url, bearer_token = config.token, retries = 0 }
  end,
}
