-- luaform_openapi_document: an OpenAPI description as the mapping reads it, whatever its
-- version. It reads the document and the files its `$ref`s name from the provider directory,
-- follows references, and gives the operations of Swagger 2.0 and OpenAPI 3.0/3.1 in one shape.
-- Internal to the SDK: scripts use tf.openapi; this module's names may change without notice.

local documents = require("luaform_documents")
local sorted_keys = require("luaform_check").sorted_keys
local null = require("luaform_json").null

local M = {}

local METHODS = { "get", "put", "post", "delete", "patch" }

-- A JSON pointer's token as written ("a~1b" is "a/b", "%7B" is "{").
local function pointer_token(token)
  token = token:gsub("%%(%x%x)", function(hex)
    return string.char(tonumber(hex, 16))
  end)
  return (token:gsub("~1", "/"):gsub("~0", "~"))
end

-- The directory part of a file name inside the provider directory ("specs/" of
-- "specs/api.yaml"), for resolving a reference relative to the file that holds it.
local function directory_of(file)
  return file:match("^(.*/)") or ""
end

-- "a/./b/../c" as "a/c".
local function normalised(file)
  local parts = {}
  for part in file:gmatch("[^/]+") do
    if part == ".." then
      parts[#parts] = nil
    elseif part ~= "." then
      parts[#parts + 1] = part
    end
  end
  return table.concat(parts, "/")
end

local Document = {}
Document.__index = Document

-- The document in `file` (relative to the provider directory) with the files its references
-- name read when first needed.
function M.open(file)
  local self = setmetatable({ root_file = file, files = {} }, Document)
  self.root = self:file(file)
  if type(self.root) ~= "table" then
    error(file .. ": is not an OpenAPI description (its top level is not a mapping)", 0)
  end
  if type(self.root.swagger) == "string" and self.root.swagger:match("^2%.") then
    self.version = 2
  elseif type(self.root.openapi) == "string" and self.root.openapi:match("^3%.") then
    self.version = 3
  else
    error(file .. ": is neither Swagger 2.0 nor OpenAPI 3.x (it has no \"swagger: 2.0\" or "
      .. "\"openapi: 3.x\" field)", 0)
  end
  return self
end

function Document:file(file)
  local read = self.files[file]
  if read == nil then
    read = documents.read(file)
    self.files[file] = read
  end
  return read
end

-- What `ref` (a `$ref` written in `file`) points at, and the file and pointer it is in.
function Document:target(ref, file)
  local target_file, pointer = ref:match("^([^#]*)#?(.*)$")
  if target_file == "" then
    target_file = file
  else
    target_file = normalised(directory_of(file) .. target_file)
  end
  local node = self:file(target_file)
  local where = target_file .. "#" .. pointer
  for token in pointer:gmatch("[^/]+") do
    if type(node) ~= "table" then
      error(string.format("%s: $ref %s names nothing (no %s in it)", file, ref, where), 0)
    end
    local key = pointer_token(token)
    local value = node[key]
    if value == nil and math.tointeger(tonumber(key)) then
      value = node[math.tointeger(tonumber(key)) + 1]
    end
    node = value
  end
  if node == nil or node == null then
    error(string.format("%s: $ref %s names nothing", file, ref), 0)
  end
  return node, target_file, where
end

-- `node` with its `$ref`s followed (a chain of them too), and the file it is in. Sibling keys
-- of a `$ref` (OpenAPI 3.1 allows a description beside one) are kept on top of the target.
function Document:resolve(node, file)
  file = file or self.root_file
  local seen = {}
  while type(node) == "table" and type(node["$ref"]) == "string" do
    local ref = node["$ref"]
    if seen[ref] then
      error(string.format("%s: $ref %s refers to itself", file, ref), 0)
    end
    seen[ref] = true
    local siblings = node
    node, file = self:target(ref, file)
    if next(siblings, next(siblings)) ~= nil then
      local merged = {}
      for k, v in pairs(node) do
        merged[k] = v
      end
      for k, v in pairs(siblings) do
        if k ~= "$ref" then
          merged[k] = v
        end
      end
      node = merged
    end
  end
  return node, file
end

-- The name a `$ref` gives a schema ("Zone" for "#/definitions/Zone"), or nil.
function M.ref_name(node)
  if type(node) == "table" and type(node["$ref"]) == "string" then
    return node["$ref"]:match("([^/#]+)$")
  end
  return nil
end

-- The JSON media type of a `content` map: application/json, else the first (by name) whose
-- type says json (application/problem+json, application/vnd.x+json).
local function json_media(content)
  if content["application/json"] ~= nil then
    return content["application/json"]
  end
  local names = {}
  for name in pairs(content) do
    if type(name) == "string" and name:match("json") then
      names[#names + 1] = name
    end
  end
  table.sort(names)
  return names[1] and content[names[1]] or nil
end

-- The success response of an operation: its schema (nil when it states none) and status.
local function success_response(self, operation, file)
  local responses = operation.responses
  if type(responses) ~= "table" then
    return nil, nil
  end
  local statuses = {}
  for status in pairs(responses) do
    local code = tostring(status)
    if code:match("^2%d%d$") or code == "2XX" or code == "default" then
      statuses[#statuses + 1] = code
    end
  end
  table.sort(statuses)  -- 200 before 201 before 204 before "default"
  for _, status in ipairs(statuses) do
    local response, response_file = self:resolve(responses[status] or responses[tonumber(status)],
      file)
    if type(response) == "table" then
      local schema = response.schema
      if self.version == 3 and type(response.content) == "table" then
        local media = json_media(response.content)
        schema = type(media) == "table" and media.schema or nil
      end
      if schema ~= nil then
        return schema, status, response_file
      end
    end
  end
  return nil, statuses[1]
end

-- The body an operation takes: its schema, whether it is required, and the file it is in.
local function request_body(self, operation, parameters, file)
  if self.version == 2 then
    for _, parameter in ipairs(parameters) do
      if parameter["in"] == "body" then
        return parameter.schema, parameter.required == true, file
      end
    end
    return nil
  end
  local body, body_file = self:resolve(operation.requestBody, file)
  if type(body) ~= "table" or type(body.content) ~= "table" then
    return nil
  end
  local media = json_media(body.content)
  if type(media) ~= "table" then
    return nil
  end
  return media.schema, body.required == true, body_file
end

-- The parameters of an operation: the path item's and the operation's (which win), resolved.
local function parameters_of(self, path_item, operation, file)
  local by_key, order = {}, {}
  -- In order, the operation's last (a table holding nil would end ipairs early).
  for _, list in ipairs({ path_item.parameters or false, operation.parameters or false }) do
    if type(list) == "table" then
      for _, raw in ipairs(list) do
        local parameter = self:resolve(raw, file)
        if type(parameter) == "table" and type(parameter.name) == "string" then
          local key = tostring(parameter["in"]) .. ":" .. parameter.name
          if by_key[key] == nil then
            order[#order + 1] = key
          end
          by_key[key] = parameter
        end
      end
    end
  end
  local parameters = {}
  for _, key in ipairs(order) do
    parameters[#parameters + 1] = by_key[key]
  end
  return parameters
end

-- Every operation, in the document's path order sorted, as
-- { method, path, id, operation, parameters, body, body_required, response, status, where }.
function Document:operations()
  if self.listed then
    return self.listed
  end
  local paths = self.root.paths
  local listed = {}
  if type(paths) ~= "table" then
    self.listed = listed
    return listed
  end
  for _, path in ipairs(sorted_keys(paths)) do
    local path_item, file = self:resolve(paths[path])
    if type(path_item) == "table" then
      for _, method in ipairs(METHODS) do
        local operation = path_item[method]
        if type(operation) == "table" then
          local parameters = parameters_of(self, path_item, operation, file)
          local body, body_required, body_file = request_body(self, operation, parameters, file)
          local response, status, response_file = success_response(self, operation, file)
          listed[#listed + 1] = {
            method = method,
            path = path,
            id = type(operation.operationId) == "string" and operation.operationId or nil,
            operation = operation,
            parameters = parameters,
            body = body,
            body_file = body_file or file,
            body_required = body_required,
            response = response,
            response_file = response_file or file,
            status = status,
            where = "paths." .. path .. "." .. method,
            file = file,
          }
        end
      end
    end
  end
  self.listed = listed
  return listed
end

-- The base URL the description states: OpenAPI 3's first server (its variables at their
-- defaults), or Swagger 2's scheme, host and basePath. Nil when it states none.
function Document:base_url()
  local root = self.root
  if self.version == 3 then
    local server = type(root.servers) == "table" and root.servers[1]
    if type(server) ~= "table" or type(server.url) ~= "string" then
      return nil
    end
    return (server.url:gsub("{([^}]+)}", function(name)
      local variable = type(server.variables) == "table" and server.variables[name]
      return type(variable) == "table" and tostring(variable.default) or "{" .. name .. "}"
    end))
  end
  if type(root.host) ~= "string" then
    return type(root.basePath) == "string" and root.basePath or nil
  end
  local scheme = type(root.schemes) == "table" and root.schemes[1] or "https"
  return scheme .. "://" .. root.host .. (type(root.basePath) == "string" and root.basePath or "")
end

-- The security schemes by name, resolved: Swagger 2's securityDefinitions or OpenAPI 3's
-- components.securitySchemes.
function Document:security_schemes()
  local root = self.root
  local schemes = self.version == 2 and root.securityDefinitions
    or (type(root.components) == "table" and root.components.securitySchemes)
  local resolved = {}
  if type(schemes) == "table" then
    for name, scheme in pairs(schemes) do
      resolved[name] = self:resolve(scheme)
    end
  end
  return resolved
end

return M
