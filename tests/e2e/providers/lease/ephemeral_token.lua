-- ephemeral "lease_token": a short-lived token, renewed while the CLI runs and revoked when it
-- is done. The lease's id travels to renew and close as private data.
local tf = require("luaform")

return tf.ephemeral {
  description = "A token leased for the length of one run",
  schema = {
    role = tf.string { required = true },
    ttl = tf.number { optional = true, default = 60, description = "Seconds the lease lives" },
    token = tf.string { computed = true, sensitive = true },
  },
  open = function(d, client)
    local lease = client:post("/leases", { role = d:get("role"), ttl = d:get("ttl") })
    d:set("token", lease.token)
    d:set_private("lease", lease.id)
    d:set_private("ttl", lease.ttl)
    d:renew_in(lease.ttl / 2)
  end,
  renew = function(d, client)
    local answer = client:put("/leases/" .. d:private("lease"), {})
    d:renew_in(answer.ttl / 2)
  end,
  close = function(d, client)
    client:delete("/leases/" .. d:private("lease"))
  end,
}
