-- postgresql_schema: a schema of a database, id "database.schema".
local tf = require("luaform")
local sql = require("lib.sql")

local function split(id)
  return id:match("^([^.]+)%.(.+)$")
end

local function read_schema(d, client)
  local database, name = split(d:id())
  local rows = client:query("select nspname, pg_get_userbyid(nspowner) as owner" ..
    " from pg_namespace where nspname = " .. sql.literal(name), database)
  if #rows == 0 then
    d:set_id("")
    return
  end
  d:set("database", database)
  d:set("name", rows[1].nspname)
  d:set("owner", rows[1].owner)
end

return tf.resource {
  description = "A schema of a PostgreSQL database",
  schema = {
    database = tf.string { required = true, force_new = true },
    name = tf.string { required = true, force_new = true },
    owner = tf.string { optional = true, computed = true },
  },
  create = function(d, client)
    local statement = "create schema " .. sql.identifier(d:get("name"))
    if not sql.unset(d:get("owner")) then
      statement = statement .. " authorization " .. sql.identifier(d:get("owner"))
    end
    client:query(statement, d:get("database"))
    d:set_id(d:get("database") .. "." .. d:get("name"))
    read_schema(d, client)
  end,
  read = read_schema,
  update = function(d, client)
    if d:has_change("owner") and not sql.unset(d:get("owner")) then
      client:query("alter schema " .. sql.identifier(d:get("name")) .. " owner to " ..
        sql.identifier(d:get("owner")), d:get("database"))
    end
    read_schema(d, client)
  end,
  delete = function(d, client)
    local database, name = split(d:id())
    client:query("drop schema if exists " .. sql.identifier(name), database)
  end,
  import = function(d)
    if not split(d:id()) then
      error("import a schema by \"database.schema\", not \"" .. d:id() .. "\"")
    end
  end,
}
