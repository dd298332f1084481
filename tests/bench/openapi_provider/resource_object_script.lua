-- resource "bench_object_script": bench_object (served from objects.openapi.json) written as a
-- script, as an author would: the same schema (optional fields the server may fill in are
-- optional and computed, the id is the identity), sent with POST and PUT, read with GET.
local tf = require("luaform")

local FIELDS = { "s1", "s2", "s3", "s4", "n1", "n2", "n3", "b1", "b2" }

local function body_of(d)
  local body = {}
  for _, name in ipairs(FIELDS) do
    body[name] = d:get(name)
  end
  return body
end

local function record(d, object)
  for _, name in ipairs(FIELDS) do
    d:set(name, object[name])
  end
end

return tf.resource {
  description = "An object of the benchmark's object API, written by hand",
  schema = {
    s1 = tf.string { optional = true, computed = true },
    s2 = tf.string { optional = true, computed = true },
    s3 = tf.string { optional = true, computed = true },
    s4 = tf.string { optional = true, computed = true },
    n1 = tf.number { optional = true, computed = true },
    n2 = tf.number { optional = true, computed = true },
    n3 = tf.number { optional = true, computed = true },
    b1 = tf.bool { optional = true, computed = true },
    b2 = tf.bool { optional = true, computed = true },
  },
  identity = {
    schema = { id = tf.string { required_for_import = true, description = "The object's id" } },
  },
  create = function(d, api)
    local object = api.http:post("/objects", body_of(d))
    d:set_id(object.id)
    record(d, object)
  end,
  read = function(d, api)
    local object, response = api.http:get("/objects/" .. d:id(), { allow = { 404 } })
    if response.status == 404 then
      d:set_id("")
      return
    end
    record(d, object)
  end,
  update = function(d, api)
    record(d, api.http:put("/objects/" .. d:id(), body_of(d)))
  end,
  delete = function(d, api)
    api.http:delete("/objects/" .. d:id(), { allow = { 404 } })
  end,
  import = tf.import_by_id,
}
