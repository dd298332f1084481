-- resource "broken_crash": create hits a Lua runtime error (indexing nil).
local tf = require("luaform")

local function lookup(tbl)
  return tbl.missing.field -- MARK: crash
end

return tf.resource {
  description = "Crashes on create",
  schema = {
    name = tf.string { required = true, force_new = true },
  },
  create = function(d)
    d:set("name", lookup({}))
  end,
  read = function() end,
  delete = function() end,
}
