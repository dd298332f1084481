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
-- What the description maps to is a plain-data model (luaform_openapi_model), kept between
-- starts (luaform_openapi_cache); the types are made from it, with the author's options, at
-- every start.

local check = require("luaform_check")
local document = require("luaform_openapi_document")
local schema = require("luaform_openapi_schema")
local types = require("luaform_openapi_types")
local lists = require("luaform_openapi_lists")
local model_of = require("luaform_openapi_model")
local cache = require("luaform_openapi_cache")
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
local function provider_schema(tf, model, env)
  local base_url = model.base_url
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
  local schemes = model.schemes
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

-- The client every hook gets (luaform_openapi_api), with the credentials each request carries;
-- `document_of()` gives the description, for scripts that call its operations by name.
local function make_client(tf, document_of, config, carriers, options)
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
  return api.new(document_of, tf.http.client(settings), request.query, config.base_url,
    options.poll)
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

-- Why `value` is no depth of `$ref`s to follow (a whole number, 0 or more), or nil.
local function depth_problem(name, value)
  if value ~= nil and (math.type(value) ~= "integer" or value < 0) then
    return name .. " must be a whole number of $ref levels to follow, such as 3"
  end
  return nil
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
  problem = depth_problem("depth", options.depth)
  if problem then
    option_error(problem)
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
        local where = kind .. "." .. tostring(name) .. "."
        problem = depth_problem(where .. "depth", type_options.depth)
          or type_options.id ~= nil and type(type_options.id) ~= "string"
            and where .. "id must be the name of the field that holds the id, such as \"uuid\""
        if problem then
          option_error(problem)
        end
      end
    end
  end
end

-- The types of `model` made with the author's `options`, and --check's notes of the patterns
-- their attributes leave unchecked.
local function served_types(tf, model, options)
  local served = { resources = {}, data_sources = {}, list_resources = {} }
  local unchecked = {}
  for _, kind in ipairs({ "resources", "data_sources" }) do
    local make = kind == "resources" and types.resource or types.data_source
    for name, type_model in pairs(model[kind]) do
      local type_options = (options[kind] or {})[name]
      if type_options ~= false then
        -- A type the mapping cannot make is left out, saying where and why (--check lists
        -- it); the others serve. The host reports it as it reports a script that does not load.
        local made, definition = type_model.load_error == nil, type_model.load_error
        if made then
          made, definition = pcall(make, tf, type_model, type_options, api.call, unchecked)
          if not made then
            definition = type_model.where .. ": " .. tostring(definition)
          end
        end
        served[kind][name] = made and definition
          or { kind = kind:gsub("s$", ""), load_error = definition }
        local listed = model.list_resources[name]
        if made and kind == "resources" and listed then
          served.list_resources[name] = listed.load_error
            and { kind = "list_resource", load_error = listed.load_error }
            or lists.list_resource(tf, listed, api.call, function(item)
              return types.id_in(item, type_model, type_model.id_field)
            end)
        end
      end
    end
  end
  return served, unchecked
end

function M.provider(options)
  checked(options)
  local tf = require("luaform")
  -- Objects nested in a property are nested attributes, which protocol 5 cannot describe:
  -- served over it, they are JSON text.
  local nesting = require("luaform_served").protocol ~= 5
    and (options.nesting or schema.DEFAULT_NESTING) or 0
  -- The description itself is read only when the model is not kept from an earlier start, or
  -- when a script calls an operation by name.
  local doc
  local function document_of()
    if doc == nil then
      doc = document.open(options.document)
      doc.nesting = nesting
    end
    return doc
  end
  local settings = model_of.settings(options, nesting)
  local ok, model = pcall(cache.model, options.document, settings, function()
    return model_of.derive(document_of(), settings)
  end)
  if not ok then
    error(model, CALLER)
  end
  local env = options.env_prefix
    or (tostring(model.title or ""):match("%a[%w]*") or "API"):upper()
  local declared, carriers = provider_schema(tf, model, env)
  local served, unchecked = served_types(tf, model, options)
  return tf.provider {
    notes = model_of.coverage_notes(model, served, unchecked, called_by_scripts()),
    description = options.description or ("Served from the OpenAPI description of "
      .. (model.title and model.title ~= "" and model.title or options.document)),
    schema = declared,
    configure = function(config, unknown)
      if next(unknown) then
        return nil
      end
      return make_client(tf, document_of, config, carriers, options)
    end,
    types = served,
  }
end

return M
