-- action "kit_ping": reports its message as progress twice; the message "fail" fails it.
local tf = require("luaform")

return tf.action {
  description = "Says its message",
  schema = { message = tf.string { required = true } },
  invoke = function(config, progress)
    progress("ping " .. config.message)
    if config.message == "fail" then
      error("the ping failed")
    end
    progress("pong " .. config.message)
  end,
}
