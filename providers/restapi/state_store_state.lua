-- state_store "restapi_state": Terraform's own state as objects of a JSON API, one per workspace
-- ({ "id": WORKSPACE, "state": "..." } in `path`), and a lock object per locked workspace in
-- `lock_path`, created with a POST that the API refuses while one of that id exists.
local tf = require("luaform")

local function object_path(collection, id)
  return collection .. tf.http.path(id)
end

-- The object at `path`, or nil when the API answers 404.
local function find(client, path)
  local answer = client:request { method = "GET", path = path }
  if answer.status == 404 then
    return nil
  end
  if answer.status < 200 or answer.status > 299 then
    error(string.format("GET %s answered %d: %s", path, answer.status, answer.body:sub(1, 200)))
  end
  return answer.json
end

local function describe(lock)
  return string.format("lock %s (%s, since %s)", tostring(lock.lock_id),
    tostring(lock.operation), tostring(lock.created))
end

return tf.state_store {
  description = "Terraform's state as objects of a JSON API, with lock objects beside them",
  timeout = "2m",
  schema = {
    path = tf.string {
      optional = true,
      default = "/tfstates",
      description = "The collection of states: each is `PATH/WORKSPACE`, "
        .. "`{\"id\": WORKSPACE, \"state\": \"...\"}`",
    },
    lock_path = tf.string {
      optional = true,
      default = "/tflocks",
      description = "The collection of locks: a POST of `{\"id\": WORKSPACE, ...}` takes one, "
        .. "refused by the API while it exists",
    },
  },

  configure = function(_, client)
    if client == nil then
      error("the restapi provider is not configured: its uri is needed to keep states")
    end
  end,

  states = function(config, client)
    local ids = {}
    for i, object in ipairs(client:get(config.path)) do
      ids[i] = tostring(object.id)
    end
    return ids
  end,

  read = function(config, id, client)
    local object = find(client, object_path(config.path, id))
    return object and object.state or nil
  end,

  write = function(config, id, state, client)
    -- One request replaces the whole object; the first write of a workspace creates it.
    local path = object_path(config.path, id)
    local answer = client:request { method = "PUT", path = path, json = { id = id, state = state } }
    if answer.status == 404 then
      client:post(config.path, { id = id, state = state })
    elseif answer.status < 200 or answer.status > 299 then
      error(string.format("PUT %s answered %d: %s", path, answer.status, answer.body:sub(1, 200)))
    end
  end,

  delete = function(config, id, client)
    local lock = find(client, object_path(config.lock_path, id))
    if lock then
      error(string.format("state %q is locked by %s: unlock it before deleting it", id,
        describe(lock)))
    end
    client:delete(object_path(config.path, id))
  end,

  lock = function(config, id, info, client)
    -- No retries: a refusal is an answer, not a failure to retry.
    local taken = client:request {
      method = "POST",
      path = config.lock_path,
      retries = 0,
      json = {
        id = id,
        lock_id = info.id,
        operation = info.operation,
        created = tf.time.rfc3339(),
      },
    }
    if taken.status >= 200 and taken.status <= 299 then
      return info.id
    end
    local held = find(client, object_path(config.lock_path, id))
    if held then
      error(string.format("state %q is locked by %s", id, describe(held)))
    end
    error(string.format("POST %s answered %d: %s", config.lock_path, taken.status,
      taken.body:sub(1, 200)))
  end,

  unlock = function(config, id, lock_id, client)
    local path = object_path(config.lock_path, id)
    local held = find(client, path)
    if held == nil then
      return
    end
    if held.lock_id ~= lock_id then
      error(string.format("state %q is locked by %s, not by lock %s", id, describe(held), lock_id))
    end
    client:delete(path)
  end,
}
