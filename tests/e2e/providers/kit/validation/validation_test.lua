-- What no CLI sends a provider is refused by the kit too: a configuration that leaves out a
-- required argument never reaches a plan.
local testing = require("luaform_testing")

local kit = testing.provider()

testing.test("a resource without a required argument does not plan", function()
  local note = kit:resource("kit_note")
  local plan = note:plan { config = {} }
  testing.has_error(plan, 'The argument "text" is required', "text")
  testing.equal(plan.planned, nil)
  testing.has_error(note:create {}, "Missing required argument", "text")
end)
