-- The redis provider: ACL users of one Redis server, through redis-lua (redis.lua beside this
-- file, copied from Debian's lua-redis package by the test).
local tf = require("luaform")
local redis = require("redis")

-- redis-lua 2.0.5 predates ACL (Redis 6): teach it the command, as its README shows.
redis.define_command("acl")

return tf.provider {
  schema = {
    host = tf.string { optional = true, default = "127.0.0.1" },
    port = tf.number { optional = true, default = 6379 },
    password = tf.string { optional = true, sensitive = true,
      description = "The password of the default user, if it has one" },
  },
  configure = function(config)
    local client = {}
    -- Runs `body` with a connection of its own, closed whatever happens.
    function client.with(_, body)
      local connection = redis.connect { host = config.host, port = config.port, timeout = 10 }
      if config.password ~= nil and config.password ~= "" then
        connection:auth(config.password)
      end
      local ok, result = pcall(body, connection)
      connection:quit()
      if not ok then
        error(result, 0)
      end
      return result
    end
    return client
  end,
}
