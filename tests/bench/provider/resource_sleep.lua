-- resource "bench_sleep": a create that waits, standing in for a slow API call, to show that
-- slow resources do not wait for each other.
local tf = require("luaform")

local created = 0

return tf.resource {
  description = "Waits delay_ms milliseconds when created",
  schema = {
    delay_ms = tf.number { required = true, force_new = true },
  },
  create = function(d)
    tf.time.sleep(d:get("delay_ms") / 1000)
    created = created + 1
    d:set_id("sleep-" .. created)
  end,
  read = function() end,
  delete = function() end,
}
