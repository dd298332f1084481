-- postgresql_role: a role, with its password and attributes. A new name renames it in place.
local tf = require("luaform")
local sql = require("lib.sql")
local scram = require("lib.scram")

local function options(d)
  local parts = {
    d:get("login") and "LOGIN" or "NOLOGIN",
    d:get("superuser") and "SUPERUSER" or "NOSUPERUSER",
    d:get("create_database") and "CREATEDB" or "NOCREATEDB",
    d:get("create_role") and "CREATEROLE" or "NOCREATEROLE",
    "CONNECTION LIMIT " .. math.tointeger(d:get("connection_limit")),
  }
  local password = d:get("password")
  parts[#parts + 1] = sql.unset(password) and "PASSWORD NULL"
    or "PASSWORD " .. sql.literal(password)
  return table.concat(parts, " ")
end

local function read_role(d, client, name)
  local rows = client:query("select rolname, rolcanlogin, rolsuper, rolcreatedb, rolcreaterole," ..
    " rolconnlimit from pg_roles where rolname = " .. sql.literal(name))
  if #rows == 0 then
    d:set_id("")
    return
  end
  local role = rows[1]
  d:set("name", role.rolname)
  d:set("login", sql.bool(role.rolcanlogin))
  d:set("superuser", sql.bool(role.rolsuper))
  d:set("create_database", sql.bool(role.rolcreatedb))
  d:set("create_role", sql.bool(role.rolcreaterole))
  d:set("connection_limit", tonumber(role.rolconnlimit))
  -- The server keeps a SCRAM verifier of the password: one set by hand no longer matches.
  local password = d:get("password")
  if not sql.unset(password) then
    local stored = client:query("select rolpassword from pg_authid where rolname = " ..
      sql.literal(name))[1]
    if stored and not scram.matches(stored.rolpassword, password) then
      d:set("password", "")
    end
  end
end

return tf.resource {
  description = "A PostgreSQL role",
  schema = {
    name = tf.string { required = true, description = "The role's name; a new one renames it" },
    login = tf.bool { optional = true, default = false, description = "Whether it may log in" },
    password = tf.string { optional = true, sensitive = true,
      description = "Its password (kept by the server as a SCRAM-SHA-256 verifier)" },
    superuser = tf.bool { optional = true, default = false },
    create_database = tf.bool { optional = true, default = false },
    create_role = tf.bool { optional = true, default = false },
    connection_limit = tf.number { optional = true, default = -1,
      description = "Connections it may hold at once; -1 for no limit" },
  },
  customize_diff = function(d)
    -- The id is the role's name: a rename gives it a new one.
    if not d:is_new_resource() and d:has_change("name") then
      d:set_new_computed("id")
    end
  end,
  create = function(d, client)
    client:query("create role " .. sql.identifier(d:get("name")) .. " with " .. options(d))
    d:set_id(d:get("name"))
    read_role(d, client, d:get("name"))
  end,
  read = function(d, client)
    read_role(d, client, d:id())
  end,
  update = function(d, client)
    local name = d:get_change("name")
    if d:has_change("name") then
      client:query("alter role " .. sql.identifier(name) .. " rename to " ..
        sql.identifier(d:get("name")))
      name = d:get("name")
    end
    client:query("alter role " .. sql.identifier(name) .. " with " .. options(d))
    d:set_id(name)
    read_role(d, client, name)
  end,
  delete = function(d, client)
    client:query("drop role if exists " .. sql.identifier(d:id()))
  end,
  -- Import by name: read finds the rest.
  import = function() end,
}
