-- resource "web_job": an object the API finishes asynchronously. Create posts it, then waits
-- with tf.wait_for until the API says its state is "done" (a test flips it); Terraform's
-- timeout for create and StopProvider both end the wait.
local tf = require("luaform")

return tf.resource {
  description = "A job the API finishes in its own time",
  timeouts = { create = "30s" },
  schema = {
    name = tf.string { required = true, force_new = true },
    state = tf.string { computed = true },
  },
  create = function(d, client)
    local job = client:post("/objects", { name = d:get("name"), state = "pending" })
    d:set_id(job.id)
    local done = tf.wait_for {
      pending = { "pending", "running" },
      target = { "done" },
      timeout = d:timeout("create"),
      min_timeout = 0.05,
      refresh = function()
        local current = client:get("/objects/" .. job.id)
        return current, current.state
      end,
    }
    d:set("state", done.state)
  end,
  read = function(d, client)
    local job, response = client:get("/objects/" .. d:id(), { allow = { 404 } })
    if response.status == 404 then
      d:set_id("")
      return
    end
    d:set("name", job.name)
    d:set("state", job.state)
  end,
  delete = function(d, client)
    client:delete("/objects/" .. d:id(), { allow = { 404 } })
  end,
}
