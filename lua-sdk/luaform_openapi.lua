-- luaform_openapi: tf.openapi, a provider served from an OpenAPI description (Swagger 2.0,
-- OpenAPI 3.0 or 3.1, JSON or YAML) kept in the provider directory. Internal to the SDK:
-- scripts use tf.openapi.provider, which provider.lua returns, saying only what the
-- description cannot:
--
--   return tf.openapi.provider {
--     document = "api.yaml",           -- the description, relative to the provider directory
--     env_prefix = "PDNS",             -- PDNS_BASE_URL, PDNS_API_KEY_HEADER, ... (default: the
--                                      -- first word of the description's title)
--     resources = {                    -- per type, what the description cannot say; false
--       zone = { attributes = { name = { diff_suppress = ... } }, id = "id" },  -- leaves one out
--     },
--     data_sources = { ... },          -- the same for data sources
--     nesting = 2,                     -- levels of objects in objects that are nested
--                                      -- attributes (deeper: JSON text)
--     poll = { link = "task" },        -- where a 202's status is, when the conventions do
--                                      -- not find it (luaform_openapi_async); per type too
--     http = { retries = 8 },          -- the shared tf.http client's waits and retries
--   }
--
-- See "From an OpenAPI description" in the authoring guide for the conventions and options.

local check = require("luaform_check")
local document = require("luaform_openapi_document")
local schema = require("luaform_openapi_schema")
local types = require("luaform_openapi_types")
local lists = require("luaform_openapi_lists")
local api = require("luaform_openapi_api")
local async = require("luaform_openapi_async")
local paths = require("luaform_paths")

local CALLER = check.CALLER

local M = {}

local OPTIONS = {
  document = true, env_prefix = true, resources = true, data_sources = true, description = true,
  depth = true, nesting = true, poll = true, http = true,
}
-- What the provider may set of the tf.http client its hooks share (the rest is the
-- description's and the provider block's): how long to wait and how often to try again.
local HTTP_OPTIONS = {
  timeout = true, connect_timeout = true, retries = true, retry_wait_min = true,
  retry_wait_max = true,
}
local TYPE_OPTIONS = {
  attributes = true, id = true, gone = true, depth = true, create = true, read = true,
  update = true, delete = true, import = true, timeouts = true, read_after_write = true,
  poll = true,
}

-- Raised from checked(), which M.provider calls: two frames above the script's line.
local function option_error(message)
  error("tf.openapi.provider: " .. message, CALLER + 2)
end

-- OAuth 2.0's client credentials flow of a scheme: OpenAPI 3's flows.clientCredentials or
-- Swagger 2's flow "application"; nil for the other flows, which need a person at a browser.
local function client_credentials_flow(scheme)
  if scheme.type ~= "oauth2" then
    return nil
  end
  if type(scheme.flows) == "table" and type(scheme.flows.clientCredentials) == "table" then
    return scheme.flows.clientCredentials
  end
  if scheme.flow == "application" then
    return scheme
  end
  return nil
end

-- The provider's arguments for one security scheme, each { name, environment variable,
-- plain = not sensitive, list = a list of strings, default = what the description says,
-- what = what it is, for its description }, and how a request carries them.
local function credential(name, scheme, env)
  local attribute = schema.attribute_name(name)
  local variable = env .. "_" .. attribute:upper()
  local flow = client_credentials_flow(scheme)
  if scheme.type == "apiKey" then
    return { { attribute, variable } }, function(config, request)
      local value = config[attribute]
      if value == nil then
        return
      end
      if scheme["in"] == "query" then
        request.query[scheme.name] = value
      elseif scheme["in"] == "cookie" then
        request.headers.cookie = scheme.name .. "=" .. value
      else
        request.headers[scheme.name] = value
      end
    end
  elseif (scheme.type == "http" and tostring(scheme.scheme):lower() == "basic")
    or scheme.type == "basic" then
    return { { "username", env .. "_USERNAME", plain = true }, { "password", env .. "_PASSWORD" } },
      function(config, request)
        request.username, request.password = config.username, config.password
      end
  elseif scheme.type == "http" and tostring(scheme.scheme):lower() == "bearer" then
    return { { attribute, variable } }, function(config, request)
      request.bearer_token = config[attribute]
    end
  elseif flow then
    local token_url = type(flow.tokenUrl) == "string" and flow.tokenUrl or nil
    return {
      { "client_id", env .. "_CLIENT_ID", plain = true, what = "OAuth 2.0 client id" },
      { "client_secret", env .. "_CLIENT_SECRET", what = "OAuth 2.0 client secret" },
      { "token_url", env .. "_TOKEN_URL", plain = true, default = token_url,
        what = "OAuth 2.0 token endpoint" },
      { "scopes", list = true },
    }, function(config, request)
      -- Several schemes may use the flow: the first one (by name) is used.
      if config.client_id == nil or request.oauth2 then
        return
      end
      if config.token_url == nil then
        error("the provider needs token_url: the security scheme " .. name
          .. " states no tokenUrl", 0)
      end
      request.oauth2 = {
        -- OpenAPI reads a relative tokenUrl against the server's URL.
        token_url = paths.resolve(config.token_url, config.base_url),
        client_id = config.client_id,
        client_secret = config.client_secret,
        scopes = config.scopes,
      }
    end
  end
  return {}, nil
end

-- The provider block: the base URL and a sensitive argument per credential, each with an
-- environment default.
local function provider_schema(tf, doc, env)
  local base_url = doc:base_url()
  local declared = {
    base_url = tf.string {
      optional = true,
      default = tf.env(env .. "_BASE_URL", base_url),
      description = "The API's base URL (env " .. env .. "_BASE_URL"
        .. (base_url and ", default " .. base_url or "") .. ")",
    },
    insecure = tf.bool { optional = true, description = "Skip verifying the TLS certificate" },
  }
  local apply = {}
  local schemes = doc:security_schemes()
  for _, name in ipairs(check.sorted_keys(schemes)) do
    local arguments, carry = credential(name, schemes[name], env)
    for _, argument in ipairs(arguments) do
      local attribute, variable = argument[1], argument[2]
      if argument.list then
        declared[attribute] = declared[attribute] or tf.list(tf.string) {
          optional = true,
          description = "The scopes the security scheme " .. name .. " asks for",
        }
      else
        declared[attribute] = declared[attribute] or tf.string {
          optional = true,
          sensitive = not argument.plain or nil,
          default = tf.env(variable, argument.default),
          description = (argument.what or "Credential") .. " of the security scheme " .. name
            .. " (env " .. variable
            .. (argument.default and ", default " .. argument.default or "") .. ")",
        }
      end
    end
    apply[#apply + 1] = carry
  end
  return declared, apply
end

-- The client every hook gets (luaform_openapi_api), with the credentials each request carries.
local function make_client(tf, doc, config, carriers, options)
  if not config.base_url then
    error("the provider needs base_url: the description states no server", 0)
  end
  local request = { headers = {}, query = {} }
  for _, carry in ipairs(carriers) do
    carry(config, request)
  end
  local settings = {
    base_url = config.base_url,
    headers = request.headers,
    username = request.username,
    password = request.password,
    bearer_token = request.bearer_token,
    oauth2 = request.oauth2,
    insecure = config.insecure,
  }
  for name, value in pairs(options.http or {}) do
    settings[name] = value
  end
  return api.new(doc, tf.http.client(settings), request.query, config.base_url, options.poll)
end

-- Why no type claims `op`, in the words of the conventions (luaform_openapi_types); `claimed`:
-- the operations types claim.
local function unclaimed_because(op, by_path, claimed)
  -- Paths that start with a link: an object the API names by its href, and what is done to it.
  local read = by_path[op.path].get
  if op.path:match("^{[^}]+}/*$") and not (read and claimed[read]) then
    return "an object named by its link whose collection has no create to pair with (the "
      .. "read's operationId with _create for _read or _retrieve)"
  elseif op.path:match("^{[^}]+}.") then
    return "an action on an object named by its link; a script calls it by name (api:call)"
  end
  local item = op.path:match("/{[^}/]+}/*$")
  if op.method == "get" then
    return item and "its collection's POST was left out of the mapping"
      or "a GET of a path that ends in no {parameter} and lists no mapped resource"
  elseif op.method == "post" then
    return "no GET of an item below it (PATH/{id}), so nothing reads what it makes"
  elseif op.method == "patch" and by_path[op.path] and by_path[op.path].put then
    return "the resource's update is the item's PUT; a PATCH beside it is not used"
  elseif item and by_path[op.path] and by_path[op.path].get then
    return "its path's GET was left out of the mapping"
  end
  return "no type is read from this path"
end

-- The operations the provider's scripts call by name (`api:call("patchZone", ...)`), each
-- with the first script that does, by file name.
local function called_by_scripts()
  local ok, scripts = pcall(require("luaform_documents").scripts)
  local callers = {}
  if not ok then
    return callers
  end
  for _, name in ipairs(check.sorted_keys(scripts)) do
    for id in scripts[name]:gmatch("[:.]call%s*%(%s*[\"']([^\"']+)[\"']") do
      callers[id] = callers[id] or name
    end
  end
  return callers
end

-- What `--check` says about the mapping: the types served, then each operation no type
-- claims, and why (or which script calls it by name).
local function coverage_notes(doc, found, served)
  local counts = {}
  for _, kind in ipairs({ "resources", "data_sources", "list_resources" }) do
    local n = 0
    for _ in pairs(served[kind]) do
      n = n + 1
    end
    counts[#counts + 1] = n .. " " .. kind:gsub("_", " ")
  end
  local notes = { doc.root_file .. ": " .. table.concat(counts, ", ") }
  local by_path = {}
  for _, op in ipairs(doc:operations()) do
    by_path[op.path] = by_path[op.path] or {}
    by_path[op.path][op.method] = op
  end
  local callers = called_by_scripts()
  for _, op in ipairs(doc:operations()) do
    if not found.claimed[op] then
      local caller = op.id and callers[op.id]
      notes[#notes + 1] = caller
        and string.format("%s: %s (%s): called by name in %s", doc.root_file, op.where, op.id,
          caller)
        or string.format("%s: %s (%s): no type: %s", doc.root_file, op.where,
          op.id or "no operationId", unclaimed_because(op, by_path, found.claimed))
    end
  end
  for _, problem in ipairs(found.problems) do
    notes[#notes + 1] = doc.root_file .. ": " .. problem
  end
  local unchecked = doc.unchecked_patterns or {}
  table.sort(unchecked)
  for _, note in ipairs(unchecked) do
    notes[#notes + 1] = doc.root_file .. ": " .. note
  end
  return notes
end

local function checked(options)
  if type(options) ~= "table" then
    option_error("expects a table of options, as in { document = \"api.yaml\" }")
  end
  local problem = check.unknown_key("tf.openapi.provider", options, OPTIONS)
  if problem then
    error(problem, CALLER + 1)
  end
  if type(options.document) ~= "string" then
    option_error("document must be the description's file name, such as \"api.yaml\"")
  end
  problem = async.option_problem(options.poll)
  if problem then
    option_error(problem)
  end
  if options.http ~= nil then
    if type(options.http) ~= "table" then
      option_error("http must be a table of tf.http.client options, such as { retries = 8 }")
    end
    problem = check.unknown_key("tf.openapi.provider: http", options.http, HTTP_OPTIONS)
    if problem then
      error(problem, CALLER + 1)
    end
    -- The values are tf.http.client's to judge: a client made of them alone says, here at the
    -- declaration, what configure would otherwise say for the first time. Its message starts
    -- with the line that made it and "http: ", which option_error gives again.
    local ok, refused = pcall(require("luaform_http").client, options.http)
    if not ok then
      refused = tostring(refused)
      option_error("http: " .. (refused:match("http: (.*)$") or refused))
    end
  end
  if options.nesting ~= nil and math.type(options.nesting) ~= "integer"
    or (options.nesting or 0) < 0 then
    option_error("nesting must be a whole number of levels (0: nested objects are JSON text)")
  end
  for _, kind in ipairs({ "resources", "data_sources" }) do
    local by_name = options[kind]
    if by_name ~= nil and type(by_name) ~= "table" then
      option_error(kind .. " must be a table of options by type name")
    end
    for name, type_options in pairs(by_name or {}) do
      if type_options ~= false then
        if type(type_options) ~= "table" then
          option_error(kind .. "." .. tostring(name) .. " must be a table of options or false")
        end
        problem = check.unknown_key("tf.openapi.provider: " .. kind .. "." .. name,
          type_options, TYPE_OPTIONS) or async.option_problem(type_options.poll)
        if problem then
          error(problem, CALLER + 1)
        end
      end
    end
  end
end

function M.provider(options)
  checked(options)
  local tf = require("luaform")
  local ok, doc = pcall(document.open, options.document)
  if not ok then
    error(doc, CALLER)
  end
  -- Objects nested in a property are nested attributes, which protocol 5 cannot describe:
  -- served over it, they are JSON text.
  doc.nesting = require("luaform_served").protocol ~= 5
    and (options.nesting or schema.DEFAULT_NESTING) or 0
  local title = type(doc.root.info) == "table" and doc.root.info.title or ""
  local env = options.env_prefix
    or (tostring(title):match("%a[%w]*") or "API"):upper()
  local declared, carriers = provider_schema(tf, doc, env)
  local found = types.plan(doc)
  local served = { resources = {}, data_sources = {}, list_resources = {} }
  for _, kind in ipairs({ "resources", "data_sources" }) do
    local make = kind == "resources" and types.resource or types.data_source
    for name, plan in pairs(found[kind]) do
      local type_options = (options[kind] or {})[name]
      if type_options ~= false then
        if type(type_options) == "table" and type_options.depth == nil then
          type_options.depth = options.depth
        end
        -- A type the mapping cannot make is left out, saying where and why (--check lists
        -- it); the others serve.
        local made, definition = pcall(make, tf, doc, plan,
          type_options or { depth = options.depth }, api.call)
        if made then
          served[kind][name] = definition
        else
          -- The host reports it as it reports a script that does not load.
          served[kind][name] = { kind = kind:gsub("s$", ""),
            load_error = plan.where .. ": " .. tostring(definition) }
        end
        if made and kind == "resources" and plan.operations.list then
          local id_field = types.id_field(doc, plan, type_options)
          served.list_resources[name] = lists.list_resource(tf, doc, plan, api.call,
            function(item)
              return types.id_in(item, plan, id_field)
            end)
        end
      end
    end
  end
  local title_text = type(title) == "string" and title ~= "" and title or options.document
  return tf.provider {
    notes = coverage_notes(doc, found, served),
    description = options.description or ("Served from the OpenAPI description of "
      .. title_text),
    schema = declared,
    configure = function(config, unknown)
      if next(unknown) then
        return nil
      end
      return make_client(tf, doc, config, carriers, options)
    end,
    types = served,
  }
end

return M
