-- Tests of etcd_state against a real etcd (tests/etcd_target.lua says which): states written
-- and read back through the protocol's chunks, workspaces listed and deleted, and the lock: a
-- second holder refused with who holds it, released only by its holder.
--   ETCD_ENDPOINT=http://127.0.0.1:2379 terraform-provider-etcd --test
local testing = require("luaform_testing")
local target = require("tests.etcd_target")

local test, equal = testing.test, testing.equal

-- A configured store of its own, under a prefix no other test uses.
local function store()
  local provider = testing.provider { endpoint = target.endpoint, prefix = target.prefix("store") }
  local states = provider:state_store("etcd_state")
  testing.no_errors(states:configure { lock_ttl = 30 })
  return states
end

test("a state is written whole, read back, listed and deleted", function()
  local states = store()
  equal(states:states().states, {})
  equal(states:read("default").state, nil, "no state yet")
  local state = '{"version":4,"serial":1,"outputs":{"note":{"value":"' .. ("é"):rep(2000) .. '"}}}'
  testing.no_errors(states:write("default", state))
  equal(states:read("default").state, state)
  testing.no_errors(states:write("dev", "{}"))
  equal(states:states().states, { "default", "dev" })
  testing.no_errors(states:delete("dev"))
  equal(states:states().states, { "default" })
end)

test("a lock refuses a second holder, naming the first, and only its holder releases it", function()
  local states = store()
  local held = states:lock("default", "OperationTypeApply")
  testing.no_errors(held)
  local lock_id = assert(held.lock_id, "a lock taken has an id")
  testing.has_error(states:lock("default", "OperationTypePlan"),
    ('state "default" is locked by lock %s (OperationTypeApply'):format(lock_id))
  testing.has_error(states:delete("default"), "unlock it before deleting it")
  testing.has_error(states:unlock("default", "someone-else"), "not by lock someone-else")
  testing.no_errors(states:unlock("default", lock_id))
  testing.no_errors(states:unlock("default", lock_id))  -- released already: nothing to do
  testing.no_errors(states:lock("default"))
end)

test("a prefix without a trailing slash is refused when the store is configured", function()
  local provider = testing.provider { endpoint = target.endpoint, prefix = target.namespace }
  testing.has_error(provider:state_store("etcd_state"):configure { prefix = "tf" },
    'prefix "tf" must end with "/"')
end)
