-- state_store "etcd_state": Terraform's own state in etcd keys, one per workspace, and a lock
-- beside each that lives on a lease, so a CLI that dies holding it frees it after `lock_ttl`.
-- Needs Terraform 1.16 with its state store experiment (see the README).
local tf = require("luaform")

local function state_key(config, id)
  return config.prefix .. "states/" .. id
end

local function lock_key(config, id)
  return config.prefix .. "locks/" .. id
end

-- What a lock key holds: who took it, for the message another CLI gets.
local function describe(held)
  local ok, info = pcall(tf.json.decode, held.value)
  if not ok or type(info) ~= "table" then
    return "a lock this store did not write (" .. held.key .. ")"
  end
  return string.format("lock %s (%s, since %s)", tostring(info.id), tostring(info.operation),
    tostring(info.created))
end

return tf.state_store {
  description = "Terraform's state in etcd: a key per workspace, locked with a lease",
  timeout = "1m",
  schema = {
    prefix = tf.string {
      optional = true,
      default = "terraform/",
      description = "Where the store's keys go, after the provider's prefix: "
        .. "`PREFIX/states/WORKSPACE` and `PREFIX/locks/WORKSPACE`",
    },
    lock_ttl = tf.number {
      optional = true,
      default = 600,
      validate = tf.v.between(10, 86400),
      description = "Seconds a lock outlives the last write of the CLI holding it; a CLI that "
        .. "died holding one frees it after that",
    },
  },

  configure = function(config, etcd)
    if etcd == nil then
      error("the etcd provider is not configured: its endpoint is needed to keep states")
    end
    if config.prefix == "" or config.prefix:sub(-1) ~= "/" then
      error(string.format("prefix %q must end with \"/\"", config.prefix))
    end
  end,

  states = function(config, etcd)
    local ids = {}
    local from = #config.prefix + #"states/" + 1
    for _, entry in ipairs(etcd:range(config.prefix .. "states/")) do
      ids[#ids + 1] = entry.key:sub(from)
    end
    return ids
  end,

  read = function(config, id, etcd)
    local entry = etcd:get(state_key(config, id))
    return entry and entry.value or nil
  end,

  write = function(config, id, state, etcd)
    -- One put replaces the whole state at once: a reader sees the old state or the new one.
    etcd:put(state_key(config, id), state)
    -- A long apply writes as it goes; each write keeps its lock alive.
    local held = etcd:get(lock_key(config, id))
    if held and held.lease ~= "0" then
      etcd:keepalive(held.lease)
    end
  end,

  delete = function(config, id, etcd)
    local held = etcd:get(lock_key(config, id))
    if held then
      error(string.format("state %q is locked by %s: unlock it before deleting it", id,
        describe(held)))
    end
    etcd:delete(state_key(config, id))
  end,

  lock = function(config, id, info, etcd)
    local lease = etcd:grant(config.lock_ttl)
    local record = tf.json.encode {
      id = info.id,
      operation = info.operation,
      created = tf.time.rfc3339(),
    }
    local held = etcd:create(lock_key(config, id), record, lease)
    if held then
      etcd:revoke(lease)
      error(string.format("state %q is locked by %s", id, describe(held)))
    end
    return info.id
  end,

  unlock = function(config, id, lock_id, etcd)
    local held = etcd:get(lock_key(config, id))
    if held == nil then
      return  -- its lease ran out already: nothing is held
    end
    local ok, info = pcall(tf.json.decode, held.value)
    if not ok or type(info) ~= "table" or info.id ~= lock_id then
      error(string.format("state %q is locked by %s, not by lock %s", id, describe(held), lock_id))
    end
    if not etcd:delete_if(lock_key(config, id), held.value) then
      error(string.format("the lock of state %q changed while it was being released", id))
    end
    if held.lease ~= "0" then
      etcd:revoke(held.lease)
    end
  end,
}
