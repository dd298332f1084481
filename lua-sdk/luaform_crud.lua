-- tf.http.crud(options): a resource's create, read, update and delete for the usual JSON API,
-- where a collection takes a POST and each object lives at the collection's path and its id.
--
-- options:
--   path    the collection ("/servers"); an object is at path .. "/" .. escaped id
--   body    function(d) returning what create and update send (a table, encoded as JSON)
--   record  function(d, object) copying what the API answered into d (create, read, update)
--   update  the method of an update: "put" (default) or "patch"
--   id      where the created object's id is: a field name (default "id") or function(object)
--   gone    statuses that mean the object no longer exists, on read and delete (default { 404 })
--   headers function(d, operation) returning the headers of a request ("create", "read",
--           "update" or "delete"), or nil: an update's If-Match with the version the last answer
--           gave (kept with d:set_private), say
--
-- A write the API answers without an object (204, or 201 with only a Location header) is read
-- back, so `record` always sees the object as the API keeps it. The functions take the client
-- `configure` returned, a tf.http client.

local paths = require("luaform_paths")

local function option_error(message)
  error("tf.http.crud: " .. message, 4)  -- at the script line that called tf.http.crud
end

local function checked(options)
  if type(options) ~= "table" then
    option_error("expects a table of options")
  end
  if type(options.path) ~= "string" or options.path == "" then
    option_error("path must be the collection's path, such as \"/servers\"")
  end
  for _, name in ipairs({ "body", "record" }) do
    if type(options[name]) ~= "function" then
      option_error(name .. " must be a function(d" .. (name == "record" and ", object)" or ")"))
    end
  end
  if options.headers ~= nil and type(options.headers) ~= "function" then
    option_error("headers must be a function(d, operation) returning a table of headers")
  end
  local method = options.update or "put"
  if method ~= "put" and method ~= "patch" then
    option_error("update must be \"put\" or \"patch\", not " .. tostring(options.update))
  end
  local id = options.id or "id"
  if type(id) ~= "string" and type(id) ~= "function" then
    option_error("id must be a field name or a function(object)")
  end
  local gone = options.gone or { 404 }
  if type(gone) ~= "table" then
    option_error("gone must be a list of statuses, such as { 404 }")
  end
  for name in pairs(options) do
    if name ~= "path" and name ~= "body" and name ~= "record" and name ~= "update"
      and name ~= "id" and name ~= "gone" and name ~= "headers" then
      option_error("unknown option " .. tostring(name))
    end
  end
  return options.path:gsub("/+$", ""), method, id, gone
end

-- The id of the object a create made: from the answer, or the last segment of its Location.
local function created_id(object, response, id)
  if type(id) == "function" then
    return id(object, response)
  end
  if type(object) == "table" and object[id] ~= nil then
    return tostring(object[id])
  end
  local location = response.headers.location
  if location then
    local last = location:gsub("[?#].*$", ""):gsub("/+$", ""):match("([^/]+)$")
    if last then
      return paths.unescape(last)
    end
  end
  error("the API's answer to the create has no \"" .. tostring(id) .. "\" and no Location "
    .. "header (status " .. response.status .. "); say where the id is with tf.http.crud's id", 0)
end

return function(options)
  local collection, method, id, gone = checked(options)
  local body, record, headers_of = options.body, options.record, options.headers

  local function item(d)
    return collection .. "/" .. paths.escape(d:id())
  end

  -- The options of `operation`'s request: the statuses it allows and the script's headers.
  local function request(d, operation, allow)
    local headers = headers_of and headers_of(d, operation)
    if headers ~= nil and type(headers) ~= "table" then
      error("tf.http.crud: headers(d, \"" .. operation .. "\") must return a table of headers "
        .. "or nil, not a " .. type(headers), 0)
    end
    return { allow = allow, headers = headers }
  end

  -- Reads the object into d; false when the API says it is gone.
  local function read_into(d, client)
    local object, response = client:get(item(d), request(d, "read", gone))
    for _, status in ipairs(gone) do
      if response.status == status then
        return false
      end
    end
    record(d, object)
    return true
  end

  local crud = {}

  function crud.create(d, client)
    local object, response = client:post(collection, body(d), request(d, "create"))
    d:set_id(created_id(object, response, id))
    if type(object) == "table" and next(object) ~= nil then
      record(d, object)
    elseif not read_into(d, client) then
      error("the object the create made at " .. item(d) .. " could not be read back", 0)
    end
  end

  function crud.read(d, client)
    if not read_into(d, client) then
      d:set_id("")
    end
  end

  function crud.update(d, client)
    local object = client[method](client, item(d), body(d), request(d, "update"))
    if type(object) == "table" and next(object) ~= nil then
      record(d, object)
    else
      read_into(d, client)
    end
  end

  function crud.delete(d, client)
    client:delete(item(d), request(d, "delete", gone))
  end

  return crud
end
