-- The checks provider's own configuration: checked like a resource's, with a default from the
-- environment, and the configured client seen by every resource.
local tf = require("luaform")

return tf.provider {
  description = "Configuration checks",
  schema = {
    region = tf.string {
      optional = true,
      default = tf.env("CHECKS_REGION", "eu-1"),
      validate = tf.v.pattern("^%l+%-%d$", "must look like eu-1"),
    },
    token = tf.string { optional = true, sensitive = true, conflicts_with = { "token_file" } },
    token_file = tf.string { optional = true },
  },
  configure = function(config)
    return { region = config.region }
  end,
}
