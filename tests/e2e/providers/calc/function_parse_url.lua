-- provider::calc::parse_url(url): an object result.
local tf = require("luaform")

local DEFAULT_PORTS = { http = 80, https = 443 }

return tf.func {
  summary = "Splits a URL into its parts",
  description = tf.markdown "Returns `scheme`, `host`, `port` and `path`.",
  params = { { name = "url", type = tf.string } },
  returns = tf.object { scheme = tf.string, host = tf.string, port = tf.number, path = tf.string },
  run = function(url)
    local scheme, rest = url:match("^(%a[%w+.-]*)://(.*)$")
    if not scheme then
      tf.fail { summary = "Not a URL", detail = url .. " has no scheme", argument = 1 }
    end
    local authority, path = rest:match("^([^/]*)(.*)$")
    local host, port = authority:match("^(.-):(%d+)$")
    return {
      scheme = scheme,
      host = host or authority,
      port = port and tonumber(port) or DEFAULT_PORTS[scheme],
      path = path == "" and "/" or path,
    }
  end,
}
