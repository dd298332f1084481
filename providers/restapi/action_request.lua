-- action "restapi_request": one request to the API outside any object's lifecycle (a cache
-- flush, a deploy hook, a notification), run with `terraform apply -invoke` or from a
-- resource's action_trigger. The request and the answer's status show as progress.
local tf = require("luaform")

local METHODS = { "GET", "POST", "PUT", "PATCH", "DELETE" }

-- A JSON object text, decoded; nil when the text is not one.
local function json_object(text)
  local ok, decoded = pcall(tf.json.decode, text)
  if ok and type(decoded) == "table" and decoded[1] == nil then
    return decoded
  end
  return nil
end

return tf.action {
  description = "Sends one request to the API, such as a webhook or a maintenance call",
  schema = {
    method = tf.string {
      optional = true,
      default = "POST",
      validate = tf.v.one_of(METHODS),
      description = "The request's method",
    },
    path = tf.string {
      required = true,
      validate = tf.v.pattern("^/", "must start with /"),
      description = "Path of the request, joined to the provider's uri",
    },
    data = tf.string {
      optional = true,
      validate = function(value)
        if not json_object(value) then
          return "must be a JSON object, such as jsonencode({ reason = \"deploy\" })"
        end
      end,
      description = "The body, a JSON object",
    },
    expect_status = tf.number {
      optional = true,
      description = "The status the answer must have; any 2xx when unset",
    },
  },

  -- At plan time: a body without a method that sends one is a mistake worth stopping for.
  plan = function(config)
    if config.data and config.method == "GET" then
      error("a GET request sends no body: drop data or use another method")
    end
  end,

  invoke = function(config, progress, client)
    progress(("%s %s"):format(config.method, config.path))
    local response = client:request {
      method = config.method,
      path = config.path,
      json = config.data and json_object(config.data) or nil,
    }
    local status = response.status
    local expected = config.expect_status
    if (expected and status ~= expected) or (not expected and (status < 200 or status > 299)) then
      error(("%s %s: status %d: %s"):format(config.method, config.path, status,
        response.body:sub(1, 512)))
    end
    progress(("%s %s: status %d"):format(config.method, config.path, status))
  end,
}
