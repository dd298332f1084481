-- resource "checks_alert": no update function, so a change to any argument replaces it; at
-- least one of email and webhook must be set; the webhook's secret is sensitive. Each object is
-- a file, numbered by a counter so that a replacement shows as a new serial.
local tf = require("luaform")
local file_object = require("lib.file_object")

local function next_serial()
  local file = io.open("alert-serial.txt")
  local serial = file and tonumber(file:read("a")) or 0
  if file then
    file:close()
  end
  file = assert(io.open("alert-serial.txt", "w"))
  file:write(serial + 1)
  file:close()
  return serial + 1
end

return tf.resource {
  schema = {
    email = tf.string { optional = true, at_least_one_of = { "email", "webhook" } },
    webhook = tf.string { optional = true },
    secret = tf.string { optional = true, sensitive = true },
    serial = tf.number { computed = true },
  },
  create = function(d)
    local serial = next_serial()
    local file = assert(io.open("alert-" .. serial .. ".txt", "w"))
    file:write(d:get("email"), " ", d:get("webhook"), " ", d:get("secret"), "\n")
    file:close()
    d:set_id(tostring(serial))
    d:set("serial", serial)
  end,
  read = file_object.read("alert"),
  delete = function(d)
    os.remove("alert-" .. d:id() .. ".txt")
  end,
}
