-- resource "restapi_object": one object of a JSON API. It is created by sending `data` to the
-- collection path, read, updated and destroyed at PATH/ID (each method and path can be
-- changed), and drift is detected on the fields `data` sets.
local tf = require("luaform")
local objects = require("lib.objects")

local function path_option(which, default)
  return tf.string {
    optional = true,
    description = ("Path for %s instead of %s; `{id}` is replaced by the object's id")
      :format(which, default),
  }
end

local function method_option(which, default)
  return tf.string {
    optional = true,
    default = default,
    validate = tf.v.one_of { "GET", "POST", "PUT", "PATCH", "DELETE" },
    description = ("HTTP method that %s the object"):format(which),
  }
end

-- The object the server answered a write with, else read back (some APIs answer 204).
local function written_object(client, d, response, id)
  if type(response.json) == "table" and next(response.json) ~= nil then
    return response.json
  end
  return objects.send(client, d, d:get("read_method"), objects.path_for(d, "read", id)).json
end

-- Statuses that mean the object is not there.
local GONE = { [404] = true, [410] = true }

return tf.resource {
  description = "An object of a JSON API, managed through its REST paths",
  timeouts = { default = "5m" },
  schema = {
    path = tf.string {
      required = true,
      force_new = true,
      description = "Collection path, as `/posts`: created with POST to it, then at `PATH/ID`",
    },
    data = tf.string {
      required = true,
      diff_suppress = tf.suppress.equivalent_json,
      validate = function(value)
        local ok, decoded = pcall(tf.json.decode, value)
        if not ok or type(decoded) ~= "table" or decoded[1] ~= nil then
          return "must be a JSON object, such as jsonencode({ title = \"x\" })"
        end
      end,
      description = "The object as JSON; its fields are the ones watched for drift",
    },
    id_attribute = tf.string {
      optional = true,
      default = "id",
      description = "Field of the server's object holding its id (a dotted path: `meta.uid`)",
    },
    object_id = tf.string {
      optional = true,
      force_new = true,
      description = "The id to use instead of the one the server gives (for PUT-to-create APIs)",
    },
    create_method = method_option("creates", "POST"),
    read_method = method_option("reads", "GET"),
    update_method = method_option("updates", "PUT"),
    destroy_method = method_option("destroys", "DELETE"),
    create_path = path_option("create", "PATH"),
    read_path = path_option("read", "PATH/ID"),
    update_path = path_option("update", "PATH/ID"),
    destroy_path = path_option("destroy", "PATH/ID"),
    query = tf.map(tf.string) {
      optional = true,
      description = "Query parameters added to every request for this object",
    },
    headers = tf.map(tf.string) {
      optional = true,
      description = "Headers added to every request for this object",
    },
    ignore_changes_to = tf.list(tf.string) {
      optional = true,
      description = "Fields of `data` the server may change without that being drift",
    },
    api_response = tf.string {
      computed = true,
      description = "The server's last answer for the object, as JSON",
    },
    api_data = tf.map(tf.string) {
      computed = true,
      description = "The top-level fields of that answer: scalars as text, the rest as JSON",
    },
  },

  customize_diff = function(d)
    -- A changed object gets a new answer from the server.
    if not d:is_new_resource() and d:has_change("data") then
      d:set_new_computed("api_response")
      d:set_new_computed("api_data")
    end
  end,

  create = function(d, client)
    local data = objects.decode_object(d:get("data"), "data")
    local explicit = d:get("object_id")
    local id = explicit ~= "" and explicit or nil
    local response = objects.send(client, d, d:get("create_method"),
      objects.path_for(d, "create", id), data)
    if id == nil then
      local answer = type(response.json) == "table" and response.json or {}
      id = objects.id_text(objects.field(answer, objects.id_attribute(d)))
      if id == nil then
        error(("the answer to creating the object has no %q field to take its id from: %s")
          :format(objects.id_attribute(d), response.body:sub(1, 512)))
      end
    end
    d:set_id(id)
    objects.record_response(d, written_object(client, d, response, id))
  end,

  read = function(d, client)
    local response = objects.send(client, d, d:get("read_method"),
      objects.path_for(d, "read", d:id()), nil, GONE)
    if GONE[response.status] then
      d:set_id("")
      return
    end
    if type(response.json) ~= "table" then
      error(("reading object %s: the answer is not a JSON object: %s")
        :format(d:id(), response.body:sub(1, 512)))
    end
    local configured = objects.decode_object(d:get("data"), "data")
    local seen = objects.as_seen_by_server(configured, response.json, d:get("ignore_changes_to"))
    d:set("data", tf.json.encode(seen))
    objects.record_response(d, response.json)
  end,

  update = function(d, client)
    local response = objects.send(client, d, d:get("update_method"),
      objects.path_for(d, "update", d:id()), objects.decode_object(d:get("data"), "data"))
    objects.record_response(d, written_object(client, d, response, d:id()))
  end,

  delete = function(d, client)
    -- Already gone is as good as deleted.
    objects.send(client, d, d:get("destroy_method"), objects.path_for(d, "destroy", d:id()), nil,
      GONE)
  end,

  -- An object is named by its collection path and its id, which never change (both replace
  -- the resource): import blocks may give identity = { path = "/posts", id = "42" }, and
  -- `terraform query` lists objects by it.
  identity = {
    schema = {
      path = tf.string { required_for_import = true, description = "Collection path, as `/posts`" },
      id = tf.string { required_for_import = true, description = "The object's id" },
    },
  },

  -- terraform import restapi_object.x /posts/42: the collection path and the id; or the same
  -- two as the identity.
  import = function(d, client)
    local path, id
    local identity = d:identity()
    if identity ~= nil then
      path, id = identity.path, identity.id
    else
      path, id = d:id():match("^(.*)/([^/]+)$")
      if path == nil or path == "" then
        error(("import id %q is not PATH/ID, as /posts/42"):format(d:id()), 0)
      end
    end
    d:set("path", path)
    d:set_id(id)
    local server = objects.send(client, d, "GET", objects.path_for(d, "read", id)).json
    if type(server) ~= "table" then
      error(("importing %s: the answer is not a JSON object"):format(d:id()))
    end
    local data = {}
    for key, value in pairs(server) do
      if key ~= objects.id_attribute(d) then
        data[key] = value
      end
    end
    d:set("data", tf.json.encode(data))
    objects.record_response(d, server)
  end,
}
