-- A provider whose every hook tells what it knows: the sensitive token of its configuration
-- and the sensitive password of its resource, in errors, log lines and print. Careless scripts
-- do this; the CLI's output and log must show "***" instead, whatever kind of hook spoke.
local tf = require("luaform")

return tf.provider {
  description = "Quotes its secrets in every hook",
  schema = {
    token = tf.string { required = true, sensitive = true },
  },
  configure = function(config)
    return { token = config.token }
  end,
}
