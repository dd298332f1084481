-- list "kit_host": the host names the list block's filter gives, as if an API had them.
local tf = require("luaform")

return tf.list_resource {
  description = "The host names of the filter",
  schema = { hosts = tf.list(tf.string) { required = true } },
  list = function(request, emit)
    for _, host in ipairs(request.config.hosts) do
      if not emit { identity = { host = host }, display_name = "host " .. host } then
        return
      end
    end
  end,
}
