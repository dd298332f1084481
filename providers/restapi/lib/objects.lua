-- What restapi_object and its data source share: paths, ids, and how a server's object is
-- compared with the fields a configuration manages.
local tf = require("luaform")

local M = {}

-- The value at a dotted field path ("id", "meta.uid") of a decoded object, or nil.
function M.field(object, dotted)
  local value = object
  for part in dotted:gmatch("[^.]+") do
    if type(value) ~= "table" then
      return nil
    end
    value = value[part]
  end
  return value
end

-- An id as text: the API may give a number (json-server does) or a string.
function M.id_text(value)
  if math.type(value) == "integer" then
    return ("%d"):format(value)
  end
  if type(value) == "string" or type(value) == "number" then
    return tostring(value)
  end
  return nil
end

-- `template` with every "{id}" replaced by `id`.
function M.with_id(template, id)
  return (template:gsub("{id}", function()
    return id
  end))
end

-- The path `which` (create, read, update, destroy) of the object configured in `d`.
function M.path_for(d, which, id)
  local explicit = d:get(which .. "_path")
  if explicit ~= "" then
    return M.with_id(explicit, id or "")
  end
  local base = d:get("path")
  if which == "create" then
    return base
  end
  return base:gsub("/+$", "") .. "/" .. id
end

-- Sends `method` to `path` with the object's query and headers (and `json` as the body when
-- given). Returns the response when its status is 2xx or in `allow`; otherwise raises, at the
-- line of the resource function that called, an error naming the request, status and body.
function M.send(client, d, method, path, json, allow)
  method = method ~= "" and method or "GET"
  local response = client:request {
    method = method,
    path = path,
    query = d:get("query"),
    headers = d:get("headers"),
    json = json,
  }
  local status = response.status
  -- One line per request in the CLI's log (TF_LOG=debug), as Go providers' logging transport
  -- writes; sensitive values the object holds are hidden by tf.log.
  tf.log.debug(("%s %s: %d"):format(method, path, status),
    { method = method, path = path, status = status })
  if (status < 200 or status > 299) and not (allow and allow[status]) then
    error(("%s %s: status %d: %s"):format(method, path, status, response.body:sub(1, 512)), 2)
  end
  return response
end

-- The id attribute of `d`, which is unset while an import reads the object.
function M.id_attribute(d)
  local name = d:get("id_attribute")
  return name ~= "" and name or "id"
end

-- A JSON object text from the configuration, decoded; raises naming the attribute.
function M.decode_object(text, attribute)
  local ok, value = pcall(tf.json.decode, text)
  if not ok or type(value) ~= "table" or (next(value) ~= nil and value[1] ~= nil) then
    error(("%s must be a JSON object, got: %s"):format(attribute, text), 0)
  end
  return value
end

-- The scalars of `object` as text and everything else as JSON, for api_data.
function M.flat_strings(object)
  local out = {}
  for key, value in pairs(object) do
    if type(value) == "table" or value == tf.json.null then
      out[key] = tf.json.encode(value)
    elseif math.type(value) == "integer" then
      out[key] = ("%d"):format(value)
    else
      out[key] = tostring(value)
    end
  end
  return out
end

local function listed(list, name)
  for _, item in ipairs(list) do
    if item == name then
      return true
    end
  end
  return false
end

-- The configured data with each managed field replaced by the server's value for it, or
-- removed when the server no longer has it; fields in `ignored` keep the configured value.
-- The server's other fields (ids, timestamps) are not the configuration's business.
function M.as_seen_by_server(configured, server, ignored)
  local seen = {}
  for key, value in pairs(configured) do
    if listed(ignored, key) then
      seen[key] = value
    elseif server[key] ~= nil then
      seen[key] = server[key]
    end
  end
  return seen
end

-- Records the server's answer in the computed attributes.
function M.record_response(d, object)
  d:set("api_response", tf.json.encode(object))
  d:set("api_data", M.flat_strings(object))
end

return M
