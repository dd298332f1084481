-- An import step's verify compares the imported object with the applied one as a plan does:
-- test_testing_kit.py checks that the first passes and the second fails where it says.
local testing = require("luaform_testing")

local HOST = 'resource "kit_host" "h" {\n  host = "acc1.test"\n  note = ""\n}\n'

-- The read spells the host "acc1.test." and leaves the empty note null: the same values to
-- the plan.
testing.acceptance("verify counts respelt values the same", {
  steps = {
    { config = HOST },
    { import = "kit_host.h", id = "acc1.test", verify = true,
      check = function(imported)
        testing.equal(imported.host, "acc1.test.")
        testing.equal(imported.note, nil)
      end },
  },
})

-- Another object is still another object.
testing.acceptance("verify finds a real difference", {
  steps = {
    { config = HOST },
    { import = "kit_host.h", id = "acc2.test", verify = true },
  },
})
