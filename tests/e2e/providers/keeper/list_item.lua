-- list "keeper_item": one object per name in the filter `names`; keeps `emit` in lib/kept.lua
-- for a later call to misuse.
local tf = require("luaform")
local kept = require("lib.kept")

return tf.list_resource {
  description = "The names it is given, as items",
  schema = {
    names = tf.list(tf.string) { optional = true },
  },
  list = function(request, emit)
    kept.emit = emit
    for _, name in ipairs(request.config.names or {}) do
      if not emit { identity = { name = name }, display_name = name } then
        return
      end
    end
  end,
}
