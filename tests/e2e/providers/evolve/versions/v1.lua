-- resource "evolve_note", schema version 1: the size is now a number called length.
local tf = require("luaform")

local function path(id)
  return "note-" .. id .. ".txt"
end

return tf.resource {
  schema_version = 1,
  schema = {
    name = tf.string { required = true, force_new = true },
    text = tf.string { required = true },
    length = tf.number { computed = true },
  },
  upgrade = {
    [0] = function(raw)
      raw.length = tonumber(raw.size)
      raw.size = nil
      return raw
    end,
  },
  create = function(d)
    local file = assert(io.open(path(d:get("name")), "w"))
    file:write(d:get("text"))
    file:close()
    d:set_id(d:get("name"))
    d:set("length", #d:get("text"))
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
    d:set("length", #text)
  end,
  delete = function(d)
    os.remove(path(d:id()))
  end,
}
