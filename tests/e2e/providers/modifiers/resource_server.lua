-- resource "modifiers_server": plan modifiers in the framework's sense. Shrinking `size`
-- replaces the server while growing it is an update (requires_replace_if); `created_at` keeps
-- its stored value through updates (use_state_for_unknown) while `updated_at` is recomputed.
-- Nothing outside the state is touched: the values are all the scenario needs.
local tf = require("luaform")

return tf.resource {
  description = "A server that can grow in place but not shrink",
  schema = {
    name = tf.string { required = true,
      requires_replace_if = function(_, new)
        if new == "boom" then
          error("cannot tell whether " .. new .. " needs a new server") -- MARK: name check
        end
        return false
      end },
    size = tf.number { required = true,
      requires_replace_if = function(old, new)
        return new ~= tf.unknown and new < old
      end },
    created_at = tf.string { computed = true, use_state_for_unknown = true },
    updated_at = tf.string { computed = true },
  },
  create = function(d)
    d:set_id(tf.uuid())
    d:set("created_at", tf.uuid())
    d:set("updated_at", tf.uuid())
  end,
  read = function()
  end,
  update = function(d)
    d:set("updated_at", tf.uuid())
  end,
  delete = function()
  end,
}
