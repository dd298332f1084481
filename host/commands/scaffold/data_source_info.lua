-- data "NAME_info": reads something without managing it.
local tf = require("luaform")

return tf.data_source {
  description = "What the provider is configured with",
  schema = {
    endpoint = tf.string { computed = true, description = "The configured endpoint" },
  },
  read = function(d, client)
    d:set_id(client.endpoint)
    d:set("endpoint", client.endpoint)
  end,
}
