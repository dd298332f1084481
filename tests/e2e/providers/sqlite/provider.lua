-- The sqlite provider: one database file, changed through the sqlite3 program.
local tf = require("luaform")
local sqlite3 = require("lib.sqlite3")

return tf.provider {
  schema = {
    database = tf.string { required = true, description = "The database file" },
    program = tf.string { optional = true, default = "sqlite3",
      description = "The sqlite3 program: a path, or a name looked up on PATH" },
  },
  configure = function(config)
    return sqlite3.client(config.database, config.program)
  end,
}
