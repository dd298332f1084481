-- Tests of etcd_state against a real etcd (ETCD_ENDPOINT, keys under ETCD_TEST_PREFIX when set):
-- states written and read back through the protocol's chunks, workspaces listed and deleted,
-- and the lock: a second holder refused with who holds it, released only by its holder.
--   ETCD_ENDPOINT=http://127.0.0.1:2379 terraform-provider-etcd --test
local testing = require("luaform_testing")

local test, equal = testing.test, testing.equal

local endpoint = os.getenv("ETCD_ENDPOINT")
if not endpoint or endpoint == "" then
  error("these tests need a running etcd: set ETCD_ENDPOINT, e.g. http://127.0.0.1:2379", 0)
end

local namespace = os.getenv("ETCD_TEST_PREFIX") or ""

-- A configured store of its own, under a prefix no other test uses.
local runs = 0
local function store()
  runs = runs + 1
  local provider = testing.provider {
    endpoint = endpoint,
    prefix = ("%sstore-%d-%d/"):format(namespace, os.time(), runs),
  }
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
  testing.has_error(states:lock("default", "OperationTypePlan"),
    ('state "default" is locked by lock %s (OperationTypeApply'):format(held.lock_id))
  testing.has_error(states:delete("default"), "unlock it before deleting it")
  testing.has_error(states:unlock("default", "someone-else"), "not by lock someone-else")
  testing.no_errors(states:unlock("default", held.lock_id))
  testing.no_errors(states:unlock("default", held.lock_id))  -- released already: nothing to do
  testing.no_errors(states:lock("default"))
end)

test("a prefix without a trailing slash is refused when the store is configured", function()
  local provider = testing.provider { endpoint = endpoint, prefix = namespace }
  testing.has_error(provider:state_store("etcd_state"):configure { prefix = "tf" },
    'prefix "tf" must end with "/"')
end)
