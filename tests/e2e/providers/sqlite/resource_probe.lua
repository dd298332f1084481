-- sqlite_probe: runs the program and arguments it is given when created, for the scenarios of a
-- program that hangs, floods its output, is missing or is handed a secret.
local tf = require("luaform")

return tf.resource {
  description = "Runs a program once, when created",
  schema = {
    command = tf.list(tf.string) { required = true, force_new = true },
    password = tf.string { optional = true, sensitive = true, force_new = true },
    max_output = tf.number { optional = true, force_new = true },
    output = tf.string { computed = true },
  },
  timeouts = { create = "30s" },
  create = function(d)
    local command = {}
    for i, argument in ipairs(d:get("command")) do
      command[i] = argument
    end
    local password = d:get("password")
    if password ~= nil and password ~= "" then
      command[#command + 1] = "--password=" .. password
    end
    local max_output = d:get("max_output")
    if max_output ~= nil and max_output > 0 then
      command.max_output = math.tointeger(max_output)
    end
    command.env = { PATH = true }
    local result = tf.exec.run(command)
    d:set_id("probe")
    d:set("output", result.stdout)
  end,
  read = function() end,
  delete = function() end,
}
