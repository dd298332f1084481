-- resource "web_name": a name the API reserves for later, where the API's objections become
-- diagnostics at the attribute they are about (tf.fail, tf.warn).
local tf = require("luaform")

return tf.resource {
  description = "A reserved name",
  schema = {
    name = tf.string { required = true, force_new = true },
    labels = tf.map(tf.string) { optional = true },
  },
  create = function(d)
    if d:get("name") == "admin" then
      tf.fail { summary = "Name not allowed", detail = "\"admin\" is kept", path = "name" }
    end
    if d:get("labels.team") == "" then
      tf.warn { summary = "No team label", detail = "names without one expire", path = "labels" }
    end
    d:set_id(d:get("name"))
  end,
  read = function() end,
  update = function() end,
  delete = function() end,
}
