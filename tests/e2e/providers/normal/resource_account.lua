-- resource "normal_account": a record file standing in for an API that stores values in its own
-- normal form: names lower-cased, JSON without spaces, keys without trailing whitespace, host
-- names without the trailing dot. Each attribute says which spellings are the same value, so
-- neither the API's spelling nor the user's shows as a change.
local tf = require("luaform")

local function record_path(id)
  return "account-" .. id .. ".txt"
end

local function without_final_dot(host)
  return (host:gsub("%.$", ""))
end

-- The API's side: what it stores for the configured values.
local function store(d)
  local lines = {
    "name\t" .. d:get("name"):lower(),
    "policy\t" .. d:get("policy"):gsub("%s", ""),
    "key\t" .. d:get("key"):gsub("%s+$", ""),
  }
  for _, rule in ipairs(d:get("rule")) do
    lines[#lines + 1] = "host\t" .. without_final_dot(rule.host)
  end
  -- Collections of primitives go through Lua tables both ways.
  for key, value in pairs(d:get("tags")) do
    lines[#lines + 1] = "tag\t" .. key .. "=" .. value
  end
  for _, alias in ipairs(d:get("aliases")) do
    lines[#lines + 1] = "alias\t" .. alias
  end
  for _, port in ipairs(d:get("ports")) do
    lines[#lines + 1] = "port\t" .. port
  end
  local file = assert(io.open(record_path(d:id()), "w"))
  file:write(table.concat(lines, "\n"), "\n")
  file:close()
end

-- Read back what the API stores, as a provider's read does after create and update.
local function load(d)
  local file = io.open(record_path(d:id()))
  if not file then
    d:set_id("")
    return
  end
  local rules, tags, aliases, ports = {}, {}, {}, {}
  for line in file:lines() do
    local field, value = line:match("^(%w+)\t(.*)$")
    if field == "host" then
      rules[#rules + 1] = { host = value }
    elseif field == "tag" then
      local key, text = value:match("^(.-)=(.*)$")
      tags[key] = text
    elseif field == "alias" then
      aliases[#aliases + 1] = value
    elseif field == "port" then
      ports[#ports + 1] = tonumber(value)
    elseif field then
      d:set(field, value)
    end
  end
  file:close()
  d:set("rule", rules)
  d:set("tags", tags)
  d:set("aliases", aliases)
  d:set("ports", ports)
end

return tf.resource {
  schema = {
    name = tf.string { required = true, force_new = true,
      diff_suppress = tf.suppress.case_insensitive },
    policy = tf.string { optional = true, default = "{}",
      diff_suppress = tf.suppress.equivalent_json },
    key = tf.string { optional = true, default = "",
      state_func = function(v) return (v:gsub("%s+$", "")) end },
    -- Not sent to the API: the state keeps the configured number exactly as written.
    quota = tf.number { optional = true },
    tags = tf.map(tf.string) { optional = true, default = {} },
    aliases = tf.set(tf.string) { optional = true, default = {} },
    ports = tf.list(tf.number) { optional = true, default = {} },
    rule = tf.list_block { schema = {
      host = tf.string { required = true, diff_suppress = function(_, old, new)
        return without_final_dot(old) == without_final_dot(new)
      end },
    } },
  },
  create = function(d)
    d:set_id(d:get("name"):lower())
    store(d)
    load(d)
  end,
  read = load,
  update = function(d)
    store(d)
    load(d)
  end,
  delete = function(d)
    os.remove(record_path(d:id()))
  end,
}
