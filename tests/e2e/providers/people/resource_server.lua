-- resource "people_server": the API assigns the address, the creation time and a region when
-- none is given. Update sends only what changed and sets nothing, as helper/schema updates do.
local tf = require("luaform")

local function body_of(d)
  return { name = d:get("name"), size = d:get("size"), region = d:get("region") }
end

local function record(d, server)
  d:set("name", server.name)
  d:set("size", server.size)
  d:set("region", server.region)
  d:set("ip", server.ip)
  d:set("created_at", server.created_at)
end

local crud = tf.http.crud { path = "/objects", body = body_of, record = record }

return tf.resource {
  description = "A server",
  schema = {
    name = tf.string { required = true },
    size = tf.number { optional = true, default = 1 },
    region = tf.string { optional = true, computed = true },
    ip = tf.string { computed = true },
    created_at = tf.string { computed = true },
  },
  create = crud.create,
  read = crud.read,
  -- Not crud.update, which sends the whole body and sets back the answer: this one is the
  -- update that leaves every value it did not touch to the engine.
  update = function(d, client)
    if d:has_change("size") then
      client:patch("/objects/" .. d:id(), { size = d:get("size") })
    end
  end,
  delete = crud.delete,
}
