-- resource "web_job": an object the API finishes asynchronously. Create posts it, then waits
-- with tf.wait_for until the API says its state is "done" (a test flips it); Terraform's
-- timeout for create and StopProvider both end the wait.
local tf = require("luaform")

local crud = tf.http.crud {
  path = "/objects",
  body = function(d) return { name = d:get("name"), state = "pending" } end,
  record = function(d, job) d:set("name", job.name) d:set("state", job.state) end,
}

-- Posts the job (crud.create sets its id, and its state as the API answers), then waits. The
-- e2e tests name this file's lines 16 (tf.wait_for) and 22 (its GET): keep them there.
local function create(d, client)
  crud.create(d, client)
  local done = tf.wait_for {
    pending = { "pending", "running" },
    target = { "done" },
    timeout = d:timeout("create"),
    min_timeout = 0.05,
    refresh = function()
      local current = client:get("/objects/" .. d:id())
      return current, current.state
    end,
  }
  d:set("state", done.state)
end

return tf.resource {
  description = "A job the API finishes in its own time",
  timeouts = { create = "30s" },
  schema = {
    name = tf.string { required = true, force_new = true },
    state = tf.string { computed = true },
  },
  create = create,
  read = crud.read,
  delete = crud.delete,
}
