-- luaform_openapi_api: the client a provider served from a description gives every hook, and
-- how it calls the description's operations. Internal to the SDK; scripts see it as the second
-- argument of their hooks (`create = function(d, api)`):
--
--   api:call(operation_id, parameters, body, options) -> answer, response
--     operation_id  the operation's operationId in the description ("patchZone")
--     parameters    its path, query and header parameters by name ({ server_id = "localhost",
--                   zone_id = "example.org." }); a name it does not have, or a required one
--                   left out, is an error naming the operation and its parameters
--     body          the request body (a table, sent as JSON), checked against the operation's
--                   body schema: a field the schema does not state (a typo), or a value of
--                   another type, is an error naming the field's place in the body
--     options       { allow = { 404 } }: statuses answered like a success; { check = false }
--                   sends the body unchecked (a description that leaves fields out);
--                   { poll = false } returns a 202 as it is, { poll = { ... } } says where
--                   its status is (luaform_openapi_async)
--   api.http        the tf.http client itself, for what the description does not describe
--
-- A status outside 2xx (and `allow`) is an error naming the method, the path, the operationId,
-- the status and the start of the answer's body. A 202 is followed until the work it started
-- is done; the response then holds `finished`, the last status answer, and `created`, the
-- link to what the work made when it says.

local json = require("luaform_json")
local paths = require("luaform_paths")
local document = require("luaform_openapi_document")
local schema = require("luaform_openapi_schema")
local sorted_keys = require("luaform_check").sorted_keys
local async = require("luaform_openapi_async")

local null = json.null

local M = {}

-- How deep a body is checked: deeper values are sent as they are.
local CHECK_DEPTH = 32

-- Whether the path `template` starts with a parameter ("{repository_href}", "{href}sync/"):
-- the parameter is then a link the API gave (an object's href), a path from its root.
function M.starts_with_link(template)
  return template:sub(1, 1) == "{"
end

-- The path `template` filled from `values`: each segment escaped, but a link a template starts
-- with, which is a path of its own and goes in as it is.
function M.filled(template, values)
  local link = M.starts_with_link(template) and template:match("^{([^}]+)}")
  return (template:gsub("{([^}]+)}", function(name)
    local value = values[name]
    if value == nil then
      error("no value for the path parameter " .. name .. " of " .. template, 0)
    end
    if name == link then
      return tostring(value)
    end
    return paths.escape(tostring(value))
  end))
end

-- Calls `op` with path `values` and `body`; returns the decoded answer and the response. A
-- status in `allow` returns like a success. `extra` may give more of the query and headers, or
-- a whole URL (a page's next link) in place of the operation's path.
function M.call(client, op, values, body, allow, extra)
  extra = extra or {}
  local query = {}
  for _, given in ipairs({ extra.query or false, client.query }) do
    for k, v in pairs(given or {}) do
      query[k] = v
    end
  end
  local path, url = nil, extra.url
  if not url then
    path = M.filled(op.path, values)
    -- A link the API gave is a path from its server's root, read as a browser reads it.
    if M.starts_with_link(op.path) and client.base_url then
      path, url = nil, paths.resolve(path, client.base_url)
    end
  end
  local response = client.http:request {
    method = op.method:upper(),
    path = path,
    url = url,
    query = not extra.url and query or nil,
    headers = extra.headers,
    json = body,
  }
  local ok = response.status >= 200 and response.status < 300
  for _, status in ipairs(allow or {}) do
    ok = ok or response.status == status
  end
  if not ok then
    local text = response.body or ""
    if #text > 512 then
      text = text:sub(1, 512) .. "..."
    end
    error(string.format("%s %s (%s) answered %d: %s", op.method:upper(), op.path,
      op.id or op.where, response.status, text), 0)
  end
  local object = response.json
  if object == null then
    object = nil
  end
  -- Work the operation started and did not finish: followed to its end (luaform_openapi_async).
  local poll = extra.poll
  if poll == nil then
    poll = client.poll
  end
  if response.status == 202 and poll ~= false then
    local finished, answered = async.finished(client, op, response, object, poll or {})
    if answered then
      response.finished, response.created = finished, answered.created
    end
  end
  return object, response
end

local Api = {}
Api.__index = Api

-- The client of a configured provider: `http` a tf.http client, `query` what every request
-- carries in its query (API keys), `document_of()` the description (read when a script first
-- calls an operation by name), `base_url` what links are read against, `poll` the provider's
-- options for 202 answers (luaform_openapi_async).
function M.new(document_of, http, query, base_url, poll)
  return setmetatable({ http = http, query = query, document_of = document_of,
    base_url = base_url, poll = poll }, Api)
end

-- The operation of `id`, by a table made on first use.
local function operation(doc, id)
  if doc.by_operation_id == nil then
    local by_id = {}
    for _, op in ipairs(doc:operations()) do
      if op.id then
        by_id[op.id] = op
      end
    end
    doc.by_operation_id = by_id
  end
  return doc.by_operation_id[id]
end

-- Where a parameter can be given by name (Swagger 2's body and formData parameters are the
-- body).
local PLACES = { path = true, query = true, header = true, cookie = true }

-- The operation's parameters that are given by name, by name.
local function named_parameters(op)
  local by_name = {}
  for _, parameter in ipairs(op.parameters) do
    if PLACES[parameter["in"]] then
      by_name[parameter.name] = parameter
    end
  end
  return by_name
end

-- `given` split into the path's values, the query and the headers, as the operation takes
-- them; nil and a message when a name is not one of its parameters or a required one is left
-- out.
local function placed_parameters(op, given)
  local by_name = named_parameters(op)
  local placed = { path = {}, query = {}, header = {}, cookie = {} }
  for name, value in pairs(given) do
    local parameter = by_name[name]
    if parameter == nil then
      local names = sorted_keys(by_name)
      return nil, string.format("has no parameter %q (its parameters: %s)", tostring(name),
        #names > 0 and table.concat(names, ", ") or "none")
    end
    local kind = type(value)
    if kind ~= "string" and kind ~= "number" and kind ~= "boolean" then
      return nil, string.format("parameter %s must be a string, number or boolean, not a %s",
        name, kind)
    end
    -- A header's or a cookie's value is text; the path and the query take numbers too.
    local where = parameter["in"]
    placed[where][name] = (where == "header" or where == "cookie") and tostring(value) or value
  end
  for name, parameter in pairs(by_name) do
    if (parameter.required or parameter["in"] == "path") and given[name] == nil then
      return nil, string.format("needs its %s parameter %s", parameter["in"], name)
    end
  end
  if next(placed.cookie) then
    local parts = {}
    for name, value in pairs(placed.cookie) do
      parts[#parts + 1] = name .. "=" .. tostring(value)
    end
    table.sort(parts)
    placed.header.cookie = table.concat(parts, "; ")
  end
  return placed
end

-- The one schema of `node` that is not null when it says "X or null" (resolved), whether it
-- allows null, and the name its `$ref` gives it; nil for a node of several alternatives
-- (which the check leaves alone).
local function alternative_of(doc, node, file, name)
  if type(node.anyOf or node.oneOf) ~= "table" then
    return node, file, node.nullable == true, name
  end
  local alternative = schema.nullable_alternative(doc, node, file)
  if alternative == nil then
    return nil
  end
  local resolved, resolved_file = doc:resolve(alternative, file)
  if type(resolved) ~= "table" then
    return nil
  end
  return resolved, resolved_file, true, document.ref_name(alternative)
end

-- The properties an object node states (allOf's parts together), and whether it takes others.
local function object_fields(doc, node, file)
  local fields, open = {}, false
  local function add(part, part_file, depth)
    part, part_file = doc:resolve(part, part_file)
    if type(part) ~= "table" or depth > CHECK_DEPTH then
      open = true
      return
    end
    if part.additionalProperties ~= nil and part.additionalProperties ~= false then
      open = true
    end
    if type(part.properties) == "table" then
      for name, property in pairs(part.properties) do
        fields[name] = { node = property, file = part_file }
      end
    end
    if type(part.allOf) == "table" then
      for _, inner in ipairs(part.allOf) do
        add(inner, part_file, depth + 1)
      end
    end
  end
  add(node, file, 0)
  return fields, open
end

-- What json.array() marks a table with (an empty list sent as []).
local ARRAY = getmetatable(json.array())

local function is_list(value)
  return (ARRAY ~= nil and getmetatable(value) == ARRAY) or value[1] ~= nil
end

local check_value  -- below

-- A message when the object `value` does not fit `node` (`title` in messages), else nil.
local function check_object(doc, node, file, value, where, depth, title)
  if is_list(value) and next(value) ~= nil then
    return where .. " is a list; the description states an object"
  end
  local fields, open = object_fields(doc, node, file)
  if next(fields) == nil then
    return nil  -- a free-form object
  end
  local names = {}
  for name in pairs(fields) do
    names[#names + 1] = name
  end
  table.sort(names)
  for key, field_value in pairs(value) do
    local field = fields[key]
    local place = where .. "." .. tostring(key)
    if field == nil then
      if not open then
        return string.format("%s: %s states no field %q (its fields: %s)", place, title,
          tostring(key), table.concat(names, ", "))
      end
    else
      local problem = check_value(doc, field.node, field.file, field_value, place, depth + 1)
      if problem then
        return problem
      end
    end
  end
  return nil
end

local SCALARS = {
  string = function(v) return type(v) == "string" end,
  integer = function(v)
    return math.type(v) == "integer" or (type(v) == "number" and v % 1 == 0)
  end,
  number = function(v) return type(v) == "number" end,
  boolean = function(v) return type(v) == "boolean" end,
}

-- A message when `value` does not fit the schema `node` (written in `file`), else nil. Only
-- what the node states plainly is checked; several alternatives are left to the server.
check_value = function(doc, node, file, value, where, depth)
  local name = document.ref_name(node)
  node, file = doc:resolve(node, file)
  if type(node) ~= "table" or depth > CHECK_DEPTH then
    return nil
  end
  local nullable
  node, file, nullable, name = alternative_of(doc, node, file, name)
  if node == nil then
    return nil
  end
  local t, null_too = schema.stated_type(node)
  if value == null then
    if nullable or null_too or t == nil then
      return nil
    end
    return where .. " is null; the description does not allow null there"
  end
  if t == nil and (type(node.properties) == "table" or type(node.allOf) == "table") then
    t = "object"
  end
  if SCALARS[t] then
    if not SCALARS[t](value) then
      return string.format("%s is a %s; the description states %s %s", where, type(value),
        t == "integer" and "an" or "a", t)
    end
  elseif t == "array" then
    if type(value) ~= "table" or not is_list(value) and next(value) ~= nil then
      return string.format("%s is a %s; the description states a list", where, type(value))
    end
    for i, element in ipairs(value) do
      local problem = check_value(doc, node.items or {}, file, element, where .. "[" .. i .. "]",
        depth + 1)
      if problem then
        return problem
      end
    end
  elseif t == "object" then
    if type(value) ~= "table" then
      return string.format("%s is a %s; the description states an object", where, type(value))
    end
    return check_object(doc, node, file, value, where, depth,
      name or type(node.title) == "string" and node.title or "the object")
  end
  return nil
end

-- Calls the operation `operation_id` (see the top of this file).
function Api:call(operation_id, parameters, body, options)
  if type(operation_id) ~= "string" then
    error("api:call expects an operationId, such as api:call(\"getPet\", { pet_id = id })", 2)
  end
  local doc = self.document_of()
  local op = operation(doc, operation_id)
  if op == nil then
    error(string.format("%s has no operation %q", doc.root_file, operation_id), 2)
  end
  if parameters ~= nil and type(parameters) ~= "table" then
    error(operation_id .. ": parameters must be a table of values by parameter name", 2)
  end
  if options ~= nil and type(options) ~= "table" then
    error(operation_id .. ": options must be a table, such as { allow = { 404 } }", 2)
  end
  options = options or {}
  local poll_problem = async.option_problem(options.poll)
  if poll_problem then
    error(operation_id .. ": " .. poll_problem, 2)
  end
  local placed, problem = placed_parameters(op, parameters or {})
  if placed == nil then
    error(operation_id .. " " .. problem, 2)
  end
  if body ~= nil then
    if op.body == nil then
      error(operation_id .. " takes no body (" .. op.where .. ")", 2)
    end
    if options.check ~= false then
      problem = check_value(doc, op.body, op.body_file, body, "body", 0)
      if problem then
        error(operation_id .. ": " .. problem, 2)
      end
    end
  elseif op.body_required then
    error(operation_id .. " needs a body (" .. op.where .. ")", 2)
  end
  return M.call(self, op, placed.path, body, options.allow,
    { query = placed.query, headers = next(placed.header) and placed.header or nil,
      poll = options.poll })
end

return M
