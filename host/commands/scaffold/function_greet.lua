-- provider::NAME::greet(name): a provider-defined function. Functions compute from their
-- arguments alone; they get no client.
local tf = require("luaform")

return tf.func {
  summary = "Greets someone",
  params = { { name = "name", type = tf.string, description = "Who to greet" } },
  returns = tf.string,
  run = function(name)
    if name == "" then
      tf.fail { summary = "Nobody to greet", detail = "the name is empty", argument = 1 }
    end
    return "Hello, " .. name .. "!"
  end,
}
