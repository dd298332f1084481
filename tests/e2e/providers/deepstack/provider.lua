-- A provider whose create nests as deep as scripts may: pcall inside pcall `depth` times (Lua
-- allows about 200 nested C calls, two per level), then a JSON document `depth` arrays deep
-- through the native helpers that walk documents.
local tf = require("luaform")

return tf.provider {
  description = "Scripts that nest as deep as Lua allows",
  schema = {},
  configure = function()
    return {}
  end,
}
