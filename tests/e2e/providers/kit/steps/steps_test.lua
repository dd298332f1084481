-- The kit's step checks and cleanups, failing on purpose where test_testing_kit.py says.
local testing = require("luaform_testing")

local NOTE = 'resource "kit_note" "n" {\n  text = "hi"\n}\n'

testing.acceptance("a misspelt step key", {
  steps = { { config = NOTE, expect_nonempty_plan = true } },
})

testing.acceptance("an empty plan that was expected not to be", {
  steps = { { config = NOTE, expect_non_empty_plan = true } },
})

testing.acceptance("a plan-only step with an empty plan", {
  steps = { { config = NOTE }, { config = NOTE, plan_only = true } },
})

-- testing.cleanup runs when the test ends, passed or failed, last registered first.
local marker = os.getenv("KIT_CLEANUP_MARKER")

testing.test("cleanups run after a failure", function()
  testing.cleanup(function()
    local f = assert(io.open(marker, "a"))
    f:write("first registered\n")
    f:close()
  end)
  testing.cleanup(function()
    local f = assert(io.open(marker, "a"))
    f:write("second registered\n")
    f:close()
  end)
  testing.equal(1, 2, "fails before the end")
end)

testing.test("a failing cleanup fails a passing test", function()
  testing.cleanup(function()
    error("could not delete the object")
  end)
end)
