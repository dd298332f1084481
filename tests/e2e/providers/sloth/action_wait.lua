-- action "sloth_wait": says it waits, then loops; its own timeout ends it after 2 s.
local tf = require("luaform")
local spin = require("lib.spin")

return tf.action {
  description = "Waits for ever",
  timeout = "2s",
  schema = {
    what = tf.string { optional = true },
  },
  invoke = function(_, progress)
    progress("waiting")
    spin()
  end,
}
