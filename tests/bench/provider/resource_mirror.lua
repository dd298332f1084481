-- resource "bench_mirror": the load test's detector of cross-talk. create keeps its own name in
-- a variable the whole Lua state shares, pauses, then copies that variable back: were two calls
-- ever run in one state at once, one of them would come back with the other's name.
local tf = require("luaform")

local holding

return tf.resource {
  description = "Echoes its name back through state-wide data, across a pause",
  schema = {
    name = tf.string { required = true, force_new = true },
    payload = tf.string { optional = true },
    echo = tf.string { computed = true },
  },
  create = function(d)
    holding = d:get("name")
    tf.time.sleep(0.001)
    d:set_id(holding)
    d:set("echo", holding .. ":" .. #d:get("payload"))
  end,
  read = function(d)
    holding = d:id()
    d:set("echo", holding .. ":" .. #d:get("payload"))
  end,
  delete = function() end,
}
