-- resource "keeper_item": an object that exists in its id alone. Its create sets the id first,
-- then:
--   keep = true       keeps its `d` in lib/kept.lua for a later call
--   use = "progress"  calls what an earlier call kept ("progress", "emit" or "d"); the error
--                     ends the create (the object was made: it is saved, tainted)
--   catch = true      calls it inside pcall, and stores the error it raised as `outcome`
local tf = require("luaform")
local kept = require("lib.kept")

-- Each kept object used as its call would have used it.
local uses = {
  progress = function(progress, name)
    progress("late word from " .. name) -- MARK: progress
  end,
  emit = function(emit, name)
    emit { identity = { name = name }, display_name = name } -- MARK: emit
  end,
  d = function(d)
    return d:get("name") -- MARK: d
  end,
}

return tf.resource {
  description = "An item, which may misuse what an earlier call kept",
  schema = {
    name = tf.string { required = true, force_new = true },
    keep = tf.bool { optional = true, force_new = true },
    use = tf.string { optional = true, force_new = true },
    catch = tf.bool { optional = true, force_new = true },
    outcome = tf.string { computed = true },
  },
  identity = { schema = { name = tf.string { required_for_import = true } } },
  create = function(d)
    local name = d:get("name")
    d:set_id(name)
    d:set("outcome", "")
    if d:get("keep") then
      kept.d = d
    end
    local use = d:get("use")
    if use == "" then
      return
    end
    local target = kept[use]
    if target == nil then
      error("nothing is kept as " .. use .. " on this Lua state")
    end
    if d:get("catch") then
      local ok, err = pcall(uses[use], target, name)
      d:set("outcome", ok and "no error" or tostring(err))
    else
      uses[use](target, name)
    end
  end,
  read = function() end,
  delete = function() end,
  import = function(d)
    d:set_id(d:identity().name)
    d:set("name", d:identity().name)
  end,
}
