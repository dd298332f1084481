-- redis_acl_user: a user of Redis's access control lists. Each apply writes the whole user
-- (ACL SETUSER name reset ...); a read takes it back from ACL GETUSER.
local tf = require("luaform")

local function words(text)
  local out = {}
  for word in tostring(text or ""):gmatch("%S+") do
    out[#out + 1] = word
  end
  return out
end

-- ACL GETUSER's flat answer (name, value, name, value, ...) as a table.
local function fields(answer)
  local out = {}
  for i = 1, #answer - 1, 2 do
    out[answer[i]] = answer[i + 1]
  end
  return out
end

local function contains(list, wanted)
  for _, item in ipairs(list or {}) do
    if item == wanted then
      return true
    end
  end
  return false
end

local function write_user(d, client)
  local rules = { "SETUSER", d:get("name"), "reset", d:get("enabled") and "on" or "off" }
  local password = d:get("password")
  if password ~= nil and password ~= "" then
    rules[#rules + 1] = ">" .. password
  else
    rules[#rules + 1] = "nopass"
  end
  for _, pattern in ipairs(d:get("keys")) do
    rules[#rules + 1] = "~" .. pattern
  end
  for _, rule in ipairs(d:get("commands")) do
    rules[#rules + 1] = rule
  end
  client:with(function(redis)
    redis:acl(table.unpack(rules))
  end)
end

local function read_user(d, client)
  local answer = client:with(function(redis)
    return redis:acl("GETUSER", d:id())
  end)
  if answer == nil then
    d:set_id("")
    return
  end
  local user = fields(answer)
  d:set("name", d:id())
  d:set("enabled", contains(user.flags, "on"))
  local keys = {}
  for _, pattern in ipairs(words(user.keys)) do
    keys[#keys + 1] = (pattern:gsub("^~", ""))
  end
  d:set("keys", keys)
  -- "-@all +@read +set": the rules after the reset's "-@all", as the configuration writes them.
  local commands = words(user.commands)
  if commands[1] == "-@all" then
    table.remove(commands, 1)
  end
  d:set("commands", commands)
  -- Redis keeps SHA-256 digests of passwords: a password changed by hand no longer matches.
  local password = d:get("password")
  if password ~= nil and password ~= ""
      and not contains(user.passwords, tf.hash.sha256(password)) then
    d:set("password", "")
  end
end

return tf.resource {
  description = "A Redis ACL user",
  schema = {
    name = tf.string { required = true, force_new = true },
    password = tf.string { optional = true, sensitive = true },
    enabled = tf.bool { optional = true, default = true },
    keys = tf.list(tf.string) { optional = true, description = "Key patterns the user may touch" },
    commands = tf.list(tf.string) { optional = true,
      description = "Command rules as Redis writes them back, such as +@read or +set" },
  },
  timeouts = { create = "30s" },
  create = function(d, client)
    write_user(d, client)
    d:set_id(d:get("name"))
    read_user(d, client)
  end,
  read = read_user,
  update = function(d, client)
    write_user(d, client)
    read_user(d, client)
  end,
  delete = function(d, client)
    client:with(function(redis)
      redis:acl("DELUSER", d:id())
    end)
  end,
  -- Import by name: read finds the rest.
  import = function() end,
}
