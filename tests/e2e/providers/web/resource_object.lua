-- resource "web_object": one object of the API, created with POST, read back with GET (a 404
-- means it is gone), replaced with PUT, removed with DELETE.
local tf = require("luaform")

local function body_of(d)
  return { name = d:get("name"), size = d:get("size"), tags = d:get("tags") }
end

local function record(d, object)
  d:set("name", object.name)
  d:set("size", object.size)
  d:set("tags", object.tags)
  d:set("revision", object.revision)
end

return tf.resource {
  description = "An object in the API",
  timeouts = { create = "3s" },
  schema = {
    name = tf.string { required = true },
    size = tf.number { optional = true, default = 1 },
    tags = tf.map(tf.string) { optional = true },
    revision = tf.number { computed = true, changes_on_update = true },
    passphrase = tf.string { optional = true, sensitive = true },
  },
  create = function(d, client)
    tf.log.debug("creating " .. d:get("name"), { size = d:get("size"), pass = d:get("passphrase") })
    local object = client:post("/objects", body_of(d))
    d:set_id(object.id)
    record(d, object)
  end,
  read = function(d, client)
    local object, response = client:get("/objects/" .. d:id(), { allow = { 404 } })
    if response.status == 404 then
      d:set_id("")
      return
    end
    record(d, object)
  end,
  update = function(d, client)
    record(d, client:put("/objects/" .. d:id(), body_of(d)))
  end,
  delete = function(d, client)
    client:delete("/objects/" .. d:id(), { allow = { 404 } })
  end,
  import = tf.import_by_id,
}
