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

local crud = tf.http.crud { path = "/objects", body = body_of, record = record }

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
    crud.create(d, client)
  end,
  read = crud.read,
  update = crud.update,
  delete = crud.delete,
  import = tf.import_by_id,
}
