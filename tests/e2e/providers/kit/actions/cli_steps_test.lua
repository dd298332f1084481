-- Query and invoke steps, which need Terraform 1.14 or later: test_testing_kit.py runs them
-- with each CLI and checks what passes, fails and is skipped.
local testing = require("luaform_testing")

local QUERY = [[
list "kit_host" "two" {
  provider = kit
  config {
    hosts = ["a.test", "b.test", "c.test"]
  }
  limit = 2
}

list "kit_host" "whole" {
  provider = kit
  include_resource = true
  config {
    hosts = ["d.test"]
  }
}
]]

local PING = [[
action "kit_ping" "hello" {
  config {
    message = "hello"
  }
}

action "kit_ping" "fail" {
  config {
    message = "fail"
  }
}
]]

testing.acceptance("a query step", {
  needs = { "query" },
  steps = {
    { query = QUERY, config = "",
      check = function(results)
        testing.equal(results["list.kit_host.two"], {
          { identity = { host = "a.test" }, display_name = "host a.test" },
          { identity = { host = "b.test" }, display_name = "host b.test" },
        })
        testing.equal(results["list.kit_host.whole"][1].object,
          { id = "d.test", host = "d.test." })
      end },
    { query = 'list "kit_host" "none" {\n  provider = kit\n  config {}\n}\n', config = "",
      expect_error = 'The argument "hosts" is required' },
  },
})

testing.acceptance("an invoke step", {
  needs = { "invoke" },
  steps = {
    { invoke = "action.kit_ping.hello", config = PING,
      check = function(progress)
        testing.equal(progress, { "ping hello", "pong hello" })
      end },
    { invoke = "action.kit_ping.fail", config = PING, expect_error = "the ping failed" },
  },
})

-- Without `needs`, a CLI that has no `terraform query` fails the test, saying so.
testing.acceptance("a query step that does not say what it needs", {
  steps = { { query = QUERY, config = "" } },
})
