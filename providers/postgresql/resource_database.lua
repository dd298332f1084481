-- postgresql_database: a database. A new owner is set in place; a new name or encoding
-- replaces it.
local tf = require("luaform")
local sql = require("lib.sql")

local function read_database(d, client, name)
  local rows = client:query("select datname, pg_get_userbyid(datdba) as owner," ..
    " pg_encoding_to_char(encoding) as encoding from pg_database where datname = " ..
    sql.literal(name))
  if #rows == 0 then
    d:set_id("")
    return
  end
  d:set("name", rows[1].datname)
  d:set("owner", rows[1].owner)
  d:set("encoding", rows[1].encoding)
end

return tf.resource {
  description = "A PostgreSQL database",
  schema = {
    name = tf.string { required = true, force_new = true },
    owner = tf.string { optional = true, computed = true,
      description = "The role that owns it (default: the provider's user)" },
    encoding = tf.string { optional = true, computed = true, force_new = true,
      description = "Its character encoding (default: the server's, from template0)" },
  },
  create = function(d, client)
    local statement = "create database " .. sql.identifier(d:get("name")) .. " template template0"
    if not sql.unset(d:get("owner")) then
      statement = statement .. " owner " .. sql.identifier(d:get("owner"))
    end
    if not sql.unset(d:get("encoding")) then
      statement = statement .. " encoding " .. sql.literal(d:get("encoding"))
    end
    client:query(statement)
    d:set_id(d:get("name"))
    read_database(d, client, d:id())
  end,
  read = function(d, client)
    read_database(d, client, d:id())
  end,
  update = function(d, client)
    if d:has_change("owner") and not sql.unset(d:get("owner")) then
      client:query("alter database " .. sql.identifier(d:id()) .. " owner to " ..
        sql.identifier(d:get("owner")))
    end
    read_database(d, client, d:id())
  end,
  delete = function(d, client)
    client:query("drop database if exists " .. sql.identifier(d:id()) .. " with (force)")
  end,
  -- Import by name: read finds the rest.
  import = function() end,
}
