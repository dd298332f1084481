-- resource "faults_pair": two files written by two separate "API calls", the case partial state
-- mode is for. With a `fail-second` marker in the working directory, the second write fails
-- after the first one went through.
local tf = require("luaform")

local function path(id, part)
  return "pair-" .. id .. "-" .. part .. ".txt"
end

local function write(id, part, value)
  local file = assert(io.open(path(id, part), "w"))
  file:write(value)
  file:close()
end

local function read(id, part)
  local file = io.open(path(id, part))
  if not file then
    return nil
  end
  local value = file:read("a")
  file:close()
  return value
end

local function second_call_fails()
  local marker = io.open("fail-second")
  if marker then
    marker:close()
  end
  return marker ~= nil
end

return tf.resource {
  schema = {
    name = tf.string { required = true, force_new = true },
    first = tf.string { required = true },
    second = tf.string { required = true },
  },
  create = function(d)
    d:set_id(d:get("name"))
    write(d:id(), "first", d:get("first"))
    write(d:id(), "second", d:get("second"))
  end,
  read = function(d)
    local first, second = read(d:id(), "first"), read(d:id(), "second")
    if first == nil or second == nil then
      d:set_id("")
      return
    end
    d:set("first", first)
    d:set("second", second)
  end,
  update = function(d)
    d:partial(true)
    if d:has_change("first") then
      write(d:id(), "first", d:get("first"))
      d:set_partial("first")
    end
    if d:has_change("second") then
      if second_call_fails() then
        error("the service rejected the second change to " .. d:id())
      end
      write(d:id(), "second", d:get("second"))
      d:set_partial("second")
    end
    d:partial(false)
  end,
  -- `tofu import faults_pair.x pair/NAME`: the import id names the kind too; read cannot tell
  -- the name from the files, so the import function sets it.
  import = function(d)
    local name = d:id():match("^pair/([%w_-]+)$")
    if not name then
      error("expected an import id of the form pair/NAME, got " .. d:id())
    end
    d:set_id(name)
    d:set("name", name)
  end,
  delete = function(d)
    os.remove(path(d:id(), "first"))
    os.remove(path(d:id(), "second"))
  end,
}
