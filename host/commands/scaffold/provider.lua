-- provider "NAME": its configuration, and configure, which builds the client every
-- resource, data source and import gets. See the authoring guide (lua-sdk/README.md).
local tf = require("luaform")

return tf.provider {
  description = "The NAME provider",
  schema = {
    endpoint = tf.string {
      optional = true,
      default = tf.env("@UPPER@_ENDPOINT", "http://127.0.0.1:8080"),
      description = "Base URL of the API (env @UPPER@_ENDPOINT)",
    },
  },
  configure = function(config, unknown)
    if unknown.endpoint then
      -- It comes from a resource not created yet: the CLI configures the provider again, with
      -- the value known, before it applies.
      return nil
    end
    -- A real provider returns its API client here, for example:
    --   return tf.http.client { base_url = config.endpoint, bearer_token = config.token }
    return { endpoint = config.endpoint }
  end,
}
