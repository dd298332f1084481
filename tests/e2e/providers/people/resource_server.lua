-- resource "people_server": the API assigns the address, the creation time and a region when
-- none is given. Update sends only what changed and sets nothing, as helper/schema updates do.
local tf = require("luaform")

local function record(d, server)
  d:set("name", server.name)
  d:set("size", server.size)
  d:set("region", server.region)
  d:set("ip", server.ip)
  d:set("created_at", server.created_at)
end

return tf.resource {
  description = "A server",
  schema = {
    name = tf.string { required = true },
    size = tf.number { optional = true, default = 1 },
    region = tf.string { optional = true, computed = true },
    ip = tf.string { computed = true },
    created_at = tf.string { computed = true },
  },
  create = function(d, client)
    local server = client:post("/objects", {
      name = d:get("name"), size = d:get("size"), region = d:get("region"),
    })
    d:set_id(server.id)
    record(d, server)
  end,
  read = function(d, client)
    local server, response = client:get("/objects/" .. d:id(), { allow = { 404 } })
    if response.status == 404 then
      d:set_id("")
      return
    end
    record(d, server)
  end,
  update = function(d, client)
    if d:has_change("size") then
      client:patch("/objects/" .. d:id(), { size = d:get("size") })
    end
  end,
  delete = function(d, client)
    client:delete("/objects/" .. d:id(), { allow = { 404 } })
  end,
}
