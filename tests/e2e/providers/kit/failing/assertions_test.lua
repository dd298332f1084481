-- Tests that fail on purpose: test_testing_kit.py checks how each failure is reported.
local testing = require("luaform_testing")

testing.describe("kit_note", function()
  testing.it("passes", function()
    local note = testing.provider():resource("kit_note")
    local created = note:create { text = "hello" }
    testing.no_errors(created)
    testing.equal(created.state, { id = "hello", text = "hello", length = 5 })
  end)

  testing.it("reports where two tables differ", function()
    local created = testing.provider():resource("kit_note"):create { text = "hi" }
    testing.equal(created.state, { id = "hi", text = "hi", length = 3 })
  end)

  testing.it("reports the diagnostics it did not expect", function()
    testing.no_errors(testing.provider():resource("kit_note"):create { text = "" })
  end)

  testing.it("reports a key the schema does not have", function()
    testing.provider():resource("kit_note"):create { txt = "typo" }
  end)
end)

testing.acceptance("needs the CLI", { steps = {} })
