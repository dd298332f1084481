-- resource "NAME_item": a starting point. It keeps everything in Terraform's state; replace
-- the marked lines with calls to your API through `client`.
local tf = require("luaform")

return tf.resource {
  description = "An item",
  schema = {
    name = tf.string { required = true, description = "The item's name" },
    note = tf.string { optional = true, default = "", description = "Free text" },
    -- Computed values keep their stored value through updates unless declared otherwise;
    -- this one is new whenever the name changes, so the plan says so.
    size = tf.number { computed = true, description = "Length of the name" },
  },

  create = function(d, client) -- luacheck: no unused args
    -- API: create the object, then set the id it gives as soon as it exists.
    d:set_id(tf.uuid())
    d:set("size", #d:get("name"))
  end,

  read = function(d, client) -- luacheck: no unused args
    -- API: read the object by d:id(); call d:set_id("") when it is gone, and d:set every
    -- attribute from what the API says, so drift shows up in plans.
  end,

  customize_diff = function(d)
    if not d:is_new_resource() and d:has_change("name") then
      d:set_new_computed("size")
    end
  end,

  update = function(d, client) -- luacheck: no unused args
    -- API: send what changed (d:has_change("note")); set only what the update changed.
    if d:has_change("name") then
      d:set("size", #d:get("name"))
    end
  end,

  delete = function(d, client) -- luacheck: no unused args
    -- API: delete the object d:id().
  end,

  import = tf.import_by_id,
}
