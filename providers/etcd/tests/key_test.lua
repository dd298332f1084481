-- Tests of the etcd provider against a real etcd (tests/etcd_target.lua says which):
--   ETCD_ENDPOINT=http://127.0.0.1:2379 [TF_ACC=1] terraform-provider-etcd --test
local testing = require("luaform_testing")
local target = require("tests.etcd_target")

local test, equal = testing.test, testing.equal
local endpoint, namespace = target.endpoint, target.namespace

-- Each test works under a prefix of its own.
local function etcd()
  local prefix = target.prefix("kit")
  return testing.provider { endpoint = endpoint, prefix = prefix }, prefix
end

test("a key is created, changed in place, refreshed and deleted", function()
  local provider = etcd()
  local key = provider:resource("etcd_key")
  local created = key:create { key = "app/name", value = "one" }
  testing.no_errors(created)
  equal(created.state.version, 1)
  local updated = key:apply { prior = created, config = { key = "app/name", value = "two" } }
  testing.no_errors(updated)
  equal(updated.replaced, false)
  equal(updated.state.version, 2)
  equal(updated.state.create_revision, created.state.create_revision)
  equal(key:read(updated).state.value, "two")
  testing.no_errors(key:destroy(updated))
  equal(key:read(updated).state, nil, "a deleted key leaves the state")
end)

test("a new key name replaces the key", function()
  local key = etcd():resource("etcd_key")
  local created = key:create { key = "a", value = "v" }
  local renamed = key:apply { prior = created, config = { key = "b", value = "v" } }
  testing.no_errors(renamed)
  equal(renamed.replaced, true)
  equal(key:read(created).state, nil, "the old key is gone")
  testing.no_errors(key:destroy(renamed))
end)

test("the data sources read keys under the provider's prefix", function()
  local provider = etcd()
  local key = provider:resource("etcd_key")
  local a = key:create { key = "list/a", value = "1" }
  local b = key:create { key = "list/b", value = "2" }
  local one = provider:data_source("etcd_key"):read { key = "list/a" }
  testing.no_errors(one)
  equal(one.state.value, "1")
  local range = provider:data_source("etcd_range"):read { prefix = "list/" }
  testing.no_errors(range)
  equal(range.state.keys, { "list/a", "list/b" })
  equal(range.state.values, { ["list/a"] = "1", ["list/b"] = "2" })
  key:destroy(a)
  key:destroy(b)
end)

test("a key imports by its name, and a missing one imports nothing", function()
  local key = etcd():resource("etcd_key")
  local created = key:create { key = "imported", value = "x" }
  local imported = key:import("imported")
  testing.no_errors(imported)
  equal(imported.state.value, "x")
  equal(imported.state.mod_revision, created.state.mod_revision)
  equal(key:import("missing").state, nil)
  key:destroy(created)
end)

testing.acceptance("etcd_key lifecycle", function()
  local prefix = ("%sacc-%d/"):format(namespace, os.time())
  local function config(value)
    return ([[
provider "etcd" {
  endpoint = %s
  prefix   = %s
}

resource "etcd_key" "k" {
  key   = "greeting"
  value = %s
}
]]):format(testing.hcl_string(endpoint), testing.hcl_string(prefix), testing.hcl_string(value))
  end
  local direct = testing.provider { endpoint = endpoint, prefix = prefix }
  return {
    steps = {
      {
        config = config("hello"),
        check = function(state)
          equal(state.resources["etcd_key.k"].value, "hello")
          equal(direct:data_source("etcd_key"):read({ key = "greeting" }).state.value, "hello")
        end,
      },
      { config = config("hello again") },
      { import = "etcd_key.k", id = "greeting", verify = true },
    },
    check_destroy = function()
      testing.has_error(direct:data_source("etcd_key"):read { key = "greeting" }, "greeting")
    end,
  }
end)
