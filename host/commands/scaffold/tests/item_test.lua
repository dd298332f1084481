-- Tests of NAME_item: ./terraform-provider-NAME --test runs them; with TF_ACC=1 the
-- acceptance test runs too, with the real CLI (TF_ACC_TERRAFORM_PATH, else tofu on PATH).
local testing = require("luaform_testing")

testing.test("creates an item and updates its note in place", function()
  local item = testing.provider():resource("NAME_item")
  local created = item:create { name = "first" }
  testing.no_errors(created)
  testing.equal(created.state.size, 5)
  local updated = item:apply { prior = created, config = { name = "first", note = "hi" } }
  testing.no_errors(updated)
  testing.equal(updated.replaced, false)
  testing.equal(updated.state.id, created.state.id)
end)

testing.acceptance("item lifecycle", {
  steps = {
    {
      config = 'resource "NAME_item" "a" {\n  name = "first"\n}\n',
      check = function(state)
        testing.equal(state.resources["NAME_item.a"].size, 5)
      end,
    },
    {
      config = 'resource "NAME_item" "a" {\n  name = "first"\n  note = "changed"\n}\n',
      check = function(state)
        testing.equal(state.resources["NAME_item.a"].note, "changed")
      end,
    },
  },
})
