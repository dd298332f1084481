-- resource "faults_item": a file whose operations fail on demand. A marker file in the working
-- directory makes the next operation of that kind fail part-way:
--   fail-create  create fails after d:set_id
--   fail-update  update writes the file and records "value", then fails
--   fail-delete  delete fails and leaves the file
--   hang-create  create never returns after d:set_id (its timeout ends it)
--   slow-NAME    create of item NAME waits a minute before it does anything
-- Every create that reaches "the service" adds a line with its name to creates.log.
local tf = require("luaform")

local function armed(marker)
  local file = io.open(marker)
  if file then
    file:close()
    return true
  end
  return false
end

local function path(name)
  return "item-" .. name .. ".txt"
end

local function write(name, value)
  local file = assert(io.open(path(name), "w"))
  file:write(value)
  file:close()
end

return tf.resource {
  description = "A file that fails on demand",
  timeouts = { create = "1m", default = "5m" },
  schema = {
    name = tf.string { required = true, force_new = true },
    value = tf.string { required = true },
    revision = tf.number { computed = true, changes_on_update = true },
    create_timeout = tf.number { computed = true, description = "d:timeout(\"create\") seen" },
  },
  create = function(d)
    if armed("slow-" .. d:get("name")) then
      tf.time.sleep(60)
    end
    local log = assert(io.open("creates.log", "a"))
    log:write(d:get("name"), "\n")
    log:close()
    write(d:get("name"), d:get("value"))
    d:set_id(d:get("name"))
    d:set("revision", 1)
    d:set("create_timeout", d:timeout("create"))
    if armed("fail-create") then
      error("the service failed after creating " .. d:id())
    end
    if armed("hang-create") then
      while true do end
    end
  end,
  -- The plan shows the next revision as a known number rather than "known after apply", and a
  -- value starting with "!" can only be written by a new item.
  customize_diff = function(d)
    if not d:is_new_resource() and d:has_change("value") then
      d:set_new("revision", d:get_change("revision") + 1)
    end
    if not d:is_unknown("value") and d:get("value"):sub(1, 1) == "!" then
      d:force_new("value")
    end
  end,
  -- Asked before every refresh; false drops the object from state (read is not called).
  exists = function(d)
    local file = io.open(path(d:id()))
    if file then
      file:close()
    end
    return file ~= nil
  end,
  read = function(d)
    local file = assert(io.open(path(d:id())))
    d:set("value", file:read("a"))
    file:close()
  end,
  update = function(d)
    write(d:id(), d:get("value"))
    d:set("revision", d:get_change("revision") + 1)
    if armed("fail-update") then
      error("the service failed after updating " .. d:id())
    end
  end,
  delete = function(d)
    if armed("fail-delete") then
      error("the service refused to delete " .. d:id())
    end
    os.remove(path(d:id()))
  end,
}
