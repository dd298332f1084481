-- resource "spinner_stuck": its create never ends: with `fifo`, inside one native call that no
-- timeout, StopProvider or count hook reaches (opening a FIFO nobody writes to blocks in the
-- kernel); without, in a Lua loop. Shutdown, SIGTERM and a vanished CLI must end the process
-- anyway.
local tf = require("luaform")

return tf.resource {
  description = "A create that never ends",
  schema = { fifo = tf.string { optional = true } },
  create = function(d)
    d:set_id("stuck")
    local fifo = d:get("fifo")  -- "" when unset
    if fifo ~= "" then
      tf.log.warn("stuck create: opening the FIFO")
      local f = io.open(fifo, "r")
      if f then f:close() end
    else
      tf.log.warn("stuck create: looping")
      local n = 0
      while true do n = n + 1 end
    end
  end,
  read = function() end,
  delete = function() end,
}
