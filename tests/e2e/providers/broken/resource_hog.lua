-- resource "broken_hog": create sets the id, then holds ever more memory, so the state's memory
-- limit must end it at its line while the host goes on serving and keeps the object.
local tf = require("luaform")

return tf.resource {
  description = "Holds memory without end on create",
  schema = {
    name = tf.string { required = true, force_new = true },
  },
  create = function(d)
    d:set_id(d:get("name"))
    local held = {}
    while true do
      held[#held + 1] = ("x"):rep(100) .. #held -- MARK: hog
    end
  end,
  read = function() end,
  delete = function() end,
}
