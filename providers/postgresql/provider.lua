-- The postgresql provider: roles, databases, schemas and grants of one PostgreSQL server,
-- through lib/pgwire.lua on the host's sockets (TLS and SCRAM-SHA-256 included).
local tf = require("luaform")
local pgwire = require("lib.pgwire")

return tf.provider {
  description = "Manages roles, databases, schemas and grants of a PostgreSQL server",
  schema = {
    host = tf.string { optional = true, default = tf.env("PGHOST", "127.0.0.1"),
      description = "The server's host name or address" },
    port = tf.number { optional = true, default = tf.env("PGPORT", 5432) },
    username = tf.string { optional = true, default = tf.env("PGUSER", "postgres"),
      description = "A role that may create roles and databases" },
    password = tf.string { optional = true, sensitive = true, default = tf.env("PGPASSWORD"),
      description = "The role's password" },
    database = tf.string { optional = true, default = "postgres",
      description = "The database connected to for roles and databases" },
    sslmode = tf.string { optional = true, default = tf.env("PGSSLMODE", "require"),
      validate = tf.v.one_of { "disable", "require", "verify-full" },
      description = "disable, require (TLS without checking the certificate) or verify-full " ..
        "(TLS with the certificate checked against sslrootcert and the host name)" },
    sslrootcert = tf.string { optional = true,
      description = "A PEM file of the authorities verify-full trusts (default: the system's)" },
    connect_timeout = tf.number { optional = true, default = 30 },
  },
  configure = function(config)
    local client = {}
    -- Runs `body(connection)` on a connection to `database` (the provider's by default),
    -- closed whatever happens.
    function client.with(_, body, database)
      local connection = pgwire.connect {
        host = config.host, port = math.tointeger(config.port) or config.port,
        user = config.username, password = config.password,
        database = database or config.database,
        sslmode = config.sslmode, sslrootcert = config.sslrootcert,
        timeout = config.connect_timeout,
      }
      local ok, result = pcall(body, connection)
      connection:close()
      if not ok then
        error(result, 0)
      end
      return result
    end
    function client.query(self, sql, database)
      return self:with(function(connection)
        return connection:query(sql)
      end, database)
    end
    return client
  end,
}
