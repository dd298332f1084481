-- resource "evolve_note" with a broken identity: the text, which an update changes in place,
-- so the object's identity would change during its life.
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
  update = function(d)
    local file = assert(io.open(path(d:id()), "w"))
    file:write(d:get("text"))
    file:close()
    d:set("size", tostring(#d:get("text")))
  end,
  identity = {
    schema = { text = tf.string { required_for_import = true } },
  },
}
