-- resource "gated_survey": counts the posts twice, `pause` seconds apart, in one create: a
-- call that outlives the access token it started with (the gateway's tokens last seconds in
-- the tests), written by hand beside the mapped type and calling its operation by name.
local tf = require("luaform")

return tf.resource {
  schema = {
    pause = tf.number { required = true, force_new = true },
    counts = tf.list(tf.number) { computed = true },
  },
  create = function(d, api)
    local first = api:call("listPosts", {})
    tf.time.sleep(d:get("pause"))
    local second = api:call("listPosts", {})
    d:set("counts", { #first, #second })
    d:set_id("survey")
  end,
  read = function() end,
  delete = function() end,
}
