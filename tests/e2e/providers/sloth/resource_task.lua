-- resource "sloth_task": its validator loops for the name "loop", the plan function of `label`
-- for the name "plan-loop".
local tf = require("luaform")
local spin = require("lib.spin")

return tf.resource {
  description = "A task whose hooks may never end",
  schema = {
    name = tf.string {
      required = true,
      validate = function(value)
        if value == "loop" then
          spin()
        end
      end,
    },
    label = tf.string {
      computed = true,
      plan = function(p)
        if p.resource.name == "plan-loop" then
          spin()
        end
        return "task " .. p.resource.name
      end,
    },
  },
  identity = { schema = { name = tf.string { required_for_import = true } } },
  create = function(d)
    d:set_id(d:get("name"))
    d:set("label", "task " .. d:get("name"))
  end,
  read = function() end,
  delete = function() end,
}
