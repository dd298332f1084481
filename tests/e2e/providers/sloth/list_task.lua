-- list "sloth_task": lists one task, then loops; its own timeout ends it after 2 s.
local tf = require("luaform")
local spin = require("lib.spin")

return tf.list_resource {
  description = "Tasks, for ever",
  timeout = "2s",
  schema = {
    prefix = tf.string { optional = true },
  },
  list = function(_, emit)
    emit { identity = { name = "first" }, display_name = "first" }
    spin()
  end,
}
