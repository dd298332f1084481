-- resource "evolve_note" with an identity (version 0): the note's name, which replaces the
-- note when it changes.
local tf = require("luaform")

local function path(id)
  return "note-" .. id .. ".txt"
end

return tf.resource {
  schema = {
    name = tf.string { required = true, force_new = true },
    text = tf.string { required = true },
    size = tf.string { computed = true },
  },
  create = function(d)
    local file = assert(io.open(path(d:get("name")), "w"))
    file:write(d:get("text"))
    file:close()
    d:set_id(d:get("name"))
    d:set("size", tostring(#d:get("text")))
  end,
  read = function(d)
    local file = io.open(path(d:id()))
    if not file then
      d:set_id("")
      return
    end
    local text = file:read("a")
    file:close()
    d:set("text", text)
    d:set("size", tostring(#text))
  end,
  delete = function(d)
    os.remove(path(d:id()))
  end,
  identity = {
    schema = { name = tf.string { required_for_import = true } },
  },
}
