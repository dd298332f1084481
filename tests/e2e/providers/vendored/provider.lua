-- A provider that uses a vendored pure-Lua library (semverlite/), to show that `require` finds
-- it beside the scripts and that the release zip carries it.
local tf = require("luaform")

return tf.provider {
  description = "Versions, compared by a vendored library",
  schema = {},
}
