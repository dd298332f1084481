-- action "keeper_note": shows its message as progress, and keeps `progress` in lib/kept.lua
-- for a later call to misuse.
local tf = require("luaform")
local kept = require("lib.kept")

return tf.action {
  description = "Says its message, and keeps progress past its call",
  schema = {
    message = tf.string { required = true },
  },
  invoke = function(config, progress)
    progress(config.message)
    kept.progress = progress
  end,
}
