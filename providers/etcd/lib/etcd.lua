-- etcd's v3 API through its HTTP/JSON gateway: keys and values travel base64-encoded, 64-bit
-- numbers as decimal strings. The provider's `prefix` is put in front of every key here, so
-- scripts work with the keys the user wrote.
local tf = require("luaform")

-- A connection: the HTTP client the provider configured and the prefix of its keys.
---@class etcd.Connection
---@field http luaform.HttpClient
---@field prefix string
local M = {}
M.__index = M

function M.new(client, prefix)
  return setmetatable({ http = client, prefix = prefix or "" }, M)
end

local function b64(text)
  return tf.base64.encode(text)
end

-- The key just after every key that starts with `prefix`: etcd's range_end for a prefix.
local function prefix_end(prefix)
  for i = #prefix, 1, -1 do
    local byte = prefix:byte(i)
    if byte < 255 then
      return prefix:sub(1, i - 1) .. string.char(byte + 1)
    end
  end
  return "\0"  -- every key
end

local function number(text)
  return text and math.tointeger(tonumber(text)) or 0
end

-- A key-value as the scripts see it: the key without the provider's prefix, numbers as numbers.
function M:entry(kv)
  local key = tf.base64.decode(kv.key)
  return {
    key = key:sub(#self.prefix + 1),
    value = kv.value and tf.base64.decode(kv.value) or "",
    version = number(kv.version),
    create_revision = number(kv.create_revision),
    mod_revision = number(kv.mod_revision),
    lease = kv.lease and kv.lease or "0",
  }
end

-- The entry of `key`, or nil when there is none.
function M:get(key)
  local answer = self.http:post("/v3/kv/range", { key = b64(self.prefix .. key) })
  local kvs = answer.kvs
  if kvs == nil or #kvs == 0 then
    return nil
  end
  return self:entry(kvs[1])
end

-- Every entry whose key starts with `prefix`, in key order.
function M:range(prefix)
  local full = self.prefix .. prefix
  local answer = self.http:post("/v3/kv/range", {
    key = b64(full ~= "" and full or "\0"),
    range_end = b64(prefix_end(full)),
  })
  local entries = {}
  for i, kv in ipairs(answer.kvs or {}) do
    entries[i] = self:entry(kv)
  end
  return entries
end

-- Writes `value` at `key`, attached to `lease` when given (a lease id as text).
function M:put(key, value, lease)
  self.http:post("/v3/kv/put", { key = b64(self.prefix .. key), value = b64(value), lease = lease })
end

function M:delete(key)
  self.http:post("/v3/kv/deleterange", { key = b64(self.prefix .. key) })
end

-- A new lease of `ttl` seconds; its id as text.
function M:grant(ttl)
  return self.http:post("/v3/lease/grant", { TTL = ttl }).ID
end

-- Writes `value` at `key` only when no such key exists: nil then, else the entry that is there.
-- One transaction, so two writers never both succeed.
function M:create(key, value, lease)
  local full = b64(self.prefix .. key)
  local answer = self.http:post("/v3/kv/txn", {
    compare = { { key = full, target = "CREATE", result = "EQUAL", create_revision = "0" } },
    success = { { request_put = { key = full, value = b64(value), lease = lease } } },
    failure = { { request_range = { key = full } } },
  })
  if answer.succeeded then
    return nil
  end
  local found = answer.responses and answer.responses[1].response_range.kvs
  return found and found[1] and self:entry(found[1]) or { key = key, value = "", lease = "0" }
end

-- Deletes `key` only while it holds `value` (someone else's lock stays); true when it did.
function M:delete_if(key, value)
  local full = b64(self.prefix .. key)
  local answer = self.http:post("/v3/kv/txn", {
    compare = { { key = full, target = "VALUE", result = "EQUAL", value = b64(value) } },
    success = { { request_delete_range = { key = full } } },
  })
  return answer.succeeded == true
end

-- Renews `lease` for another of its TTLs.
function M:keepalive(lease)
  self.http:post("/v3/lease/keepalive", { ID = lease })
end

function M:revoke(lease)
  -- A lease that expired already is gone: nothing to revoke.
  self.http:post("/v3/lease/revoke", { ID = lease }, { allow = { 404 } })
end

return M
