-- resource "etcd_key": one key and its value, optionally on a lease that ends it after `ttl`
-- seconds. A value changed outside is drift; a key deleted outside (or expired) is created again.
local tf = require("luaform")

local function record(d, entry)
  d:set("key", entry.key)
  d:set("value", entry.value)
  d:set("version", entry.version)
  d:set("create_revision", entry.create_revision)
  d:set("mod_revision", entry.mod_revision)
end

local function write(d, etcd)
  local lease = nil
  if d:get("ttl") > 0 then
    lease = etcd:grant(d:get("ttl"))
  end
  etcd:put(d:get("key"), d:get("value"), lease)
  d:set("lease_id", lease or "")
  return etcd:get(d:get("key"))
end

return tf.resource {
  description = "A key in etcd",
  schema = {
    key = tf.string {
      required = true,
      force_new = true,
      validate = tf.v.not_empty(),
      description = "The key (after the provider's prefix)",
    },
    value = tf.string { required = true, description = "Its value" },
    ttl = tf.number {
      optional = true,
      force_new = true,
      validate = tf.v.at_least(0),
      description = "Seconds until etcd deletes the key (a lease); 0: never",
    },
    lease_id = tf.string { computed = true, description = "The lease holding the key, if any" },
    version = tf.number { computed = true, description = "How many times the key was written" },
    create_revision = tf.number { computed = true, description = "Revision that created it" },
    mod_revision = tf.number { computed = true, description = "Revision that last changed it" },
  },
  customize_diff = function(d)
    if not d:is_new_resource() and d:has_change("value") then
      d:set_new_computed("version")
      d:set_new_computed("mod_revision")
    end
  end,
  create = function(d, etcd)
    local entry = write(d, etcd)
    d:set_id(d:get("key"))
    record(d, entry)
  end,
  read = function(d, etcd)
    local entry = etcd:get(d:id())
    if entry == nil then
      d:set_id("")
      return
    end
    record(d, entry)
  end,
  update = function(d, etcd)
    -- The lease stays: only the value changes (ttl forces a new key).
    local lease = d:get("lease_id")
    etcd:put(d:get("key"), d:get("value"), lease ~= "" and lease or nil)
    record(d, etcd:get(d:get("key")))
  end,
  delete = function(d, etcd)
    etcd:delete(d:id())
    if d:get("lease_id") ~= "" then
      etcd:revoke(d:get("lease_id"))
    end
  end,
  -- terraform import etcd_key.k KEY
  import = function(d, etcd)
    local entry = etcd:get(d:id())
    if entry == nil then
      tf.fail { summary = "No such key", detail = ("etcd has no key %q"):format(d:id()) }
    end
    d:set("key", entry.key)
    -- As create records it: "" when the key has no lease.
    d:set("lease_id", entry.lease ~= "0" and entry.lease or "")
  end,
}
