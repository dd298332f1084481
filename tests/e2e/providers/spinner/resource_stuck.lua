-- resource "spinner_stuck": its create never ends inside one native call that no timeout,
-- StopProvider or count hook reaches (a backtracking pattern match: 2^40 ways to fail), the
-- worst a script can do; Shutdown, SIGTERM and a vanished CLI must end the process anyway.
local tf = require("luaform")

return tf.resource {
  description = "A create stuck in native code",
  schema = { name = tf.string { required = true } },
  create = function(d)
    d:set_id(d:get("name"))
    tf.log.warn("stuck create: entering the pattern match")
    local subject = string.rep("a", 40)
    return subject:find(string.rep("a?", 40) .. subject)
  end,
  read = function() end,
  delete = function() end,
}
