-- resource "bench_rest": one object of a JSON API at `endpoint`, to show the HTTP client's
-- connection reuse.
local tf = require("luaform")

-- One client per endpoint and Lua state: its connections are reused by every later call.
local clients = {}

local function client_for(endpoint)
  local client = clients[endpoint]
  if not client then
    client = tf.http.client { base_url = endpoint, timeout = "30s" }
    clients[endpoint] = client
  end
  return client
end

return tf.resource {
  description = "An object created with POST, read with GET and removed with DELETE",
  schema = {
    endpoint = tf.string { required = true, description = "Base URL of the API" },
    name = tf.string { required = true, force_new = true },
  },
  create = function(d)
    local object = client_for(d:get("endpoint")):post("/objects", { name = d:get("name") })
    d:set_id(object.id)
  end,
  read = function(d)
    local object, response = client_for(d:get("endpoint")):get("/objects/" .. d:id(),
      { allow = { 404 } })
    if response.status == 404 then
      d:set_id("")
      return
    end
    d:set("name", object.name)
  end,
  delete = function(d)
    client_for(d:get("endpoint")):delete("/objects/" .. d:id(), { allow = { 404 } })
  end,
}
