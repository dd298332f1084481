-- provider "hangar": servers kept in record files of the working directory. `site` is only
-- read to be known: a configuration that sets it from a value not known yet makes every plan of
-- the provider's objects wait for a later run (where the CLI allows deferrals).
local tf = require("luaform")

return tf.provider {
  schema = {
    site = tf.string { optional = true },
  },
  configure = function(config)
    return { site = config.site }
  end,
}
