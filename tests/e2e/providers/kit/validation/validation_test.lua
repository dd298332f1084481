-- What no CLI sends a provider is refused by the kit too: a configuration that leaves out a
-- required argument never reaches a plan, a listing or an invoke.
local testing = require("luaform_testing")

local kit = testing.provider()

testing.test("a resource without a required argument does not plan", function()
  local note = kit:resource("kit_note")
  local plan = note:plan { config = {} }
  testing.has_error(plan, 'The argument "text" is required', "text")
  testing.equal(plan.planned, nil)
  testing.has_error(note:create {}, "Missing required argument", "text")
end)

testing.test("a list block without a required filter lists nothing", function()
  local listed = kit:list_resource("kit_host"):list { config = {} }
  testing.has_error(listed, 'The argument "hosts" is required', "hosts")
  testing.equal(listed.events, {})
end)

testing.test("an action without a required argument is not invoked", function()
  local invoked = kit:action("kit_ping"):invoke {}
  testing.has_error(invoked, 'The argument "message" is required', "message")
  testing.equal(invoked.progress, {})
end)
