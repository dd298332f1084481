-- A provider whose hooks loop for ever when told to, with short limits on each kind of hook:
-- checks 1 s, plan-time hooks 2 s, other hooks 3 s. `stall = "configure"` makes configure loop.
local tf = require("luaform")
local spin = require("lib.spin")

return tf.provider {
  description = "Hooks that never end, and the limits that end them",
  hook_timeouts = { check = "1s", plan = "2s", hook = "3s" },
  schema = {
    stall = tf.string { optional = true },
  },
  configure = function(config)
    if config.stall == "configure" then
      spin()
    end
    return {}
  end,
}
