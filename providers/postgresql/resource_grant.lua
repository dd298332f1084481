-- postgresql_grant: the privileges a role holds on a database or a schema, exactly: applying
-- revokes the others. Id "database/role/object_type[/schema]".
local tf = require("luaform")
local sql = require("lib.sql")

-- The object's catalog, its ACL column and name column, and its SQL word.
local OBJECTS = {
  database = { catalog = "pg_database", acl = "datacl", name = "datname", word = "database" },
  schema = { catalog = "pg_namespace", acl = "nspacl", name = "nspname", word = "schema" },
}

local function target(d)
  local kind = d:get("object_type")
  local name = kind == "database" and d:get("database") or d:get("schema")
  return OBJECTS[kind], name, kind == "schema" and d:get("database") or nil
end

local function read_grant(d, client)
  local object, name, database = target(d)
  local exists = client:query("select 1 from " .. object.catalog .. " where " .. object.name ..
    " = " .. sql.literal(name), database)
  local role = client:query("select 1 from pg_roles where rolname = " ..
    sql.literal(d:get("role")))
  if #exists == 0 or #role == 0 then
    d:set_id("")
    return
  end
  local rows = client:query("select a.privilege_type from " .. object.catalog ..
    " o, aclexplode(o." .. object.acl .. ") a where o." .. object.name .. " = " ..
    sql.literal(name) .. " and a.grantee = (select oid from pg_roles where rolname = " ..
    sql.literal(d:get("role")) .. ")", database)
  local privileges = {}
  for _, row in ipairs(rows) do
    privileges[#privileges + 1] = row.privilege_type
  end
  d:set("privileges", privileges)
end

local function write_grant(d, client)
  local object, name, database = target(d)
  local on = " on " .. object.word .. " " .. sql.identifier(name)
  local role = sql.identifier(d:get("role"))
  local statements = { "revoke all" .. on .. " from " .. role }
  local privileges = d:get("privileges")
  if #privileges > 0 then
    statements[2] = "grant " .. table.concat(privileges, ", ") .. on .. " to " .. role
  end
  client:query(table.concat(statements, "; "), database)
end

return tf.resource {
  description = "The privileges of a role on a database or a schema",
  schema = {
    database = tf.string { required = true, force_new = true },
    role = tf.string { required = true, force_new = true },
    object_type = tf.string { required = true, force_new = true,
      validate = tf.v.one_of { "database", "schema" } },
    schema = tf.string { optional = true, force_new = true,
      description = "The schema, when object_type is schema" },
    privileges = tf.set(tf.string) { required = true,
      description = "CONNECT, CREATE, TEMPORARY (databases); CREATE, USAGE (schemas)",
      validate = tf.v.each(tf.v.one_of { "CONNECT", "CREATE", "TEMPORARY", "USAGE" }) },
  },
  customize_diff = function(d)
    if d:get("object_type") == "schema" and sql.unset(d:get("schema")) then
      error("a grant on a schema names the schema")
    end
  end,
  create = function(d, client)
    write_grant(d, client)
    local id = d:get("database") .. "/" .. d:get("role") .. "/" .. d:get("object_type")
    if d:get("object_type") == "schema" then
      id = id .. "/" .. d:get("schema")
    end
    d:set_id(id)
    read_grant(d, client)
  end,
  read = read_grant,
  update = function(d, client)
    write_grant(d, client)
    read_grant(d, client)
  end,
  delete = function(d, client)
    local object, name, database = target(d)
    client:query("revoke all on " .. object.word .. " " .. sql.identifier(name) .. " from " ..
      sql.identifier(d:get("role")), database)
  end,
  import = function(d)
    local database, role, kind, schema = d:id():match("^([^/]+)/([^/]+)/([^/]+)/?(.*)$")
    if not database or OBJECTS[kind] == nil then
      error("import a grant by \"database/role/database\" or \"database/role/schema/name\"")
    end
    d:set("database", database)
    d:set("role", role)
    d:set("object_type", kind)
    if schema ~= "" then
      d:set("schema", schema)
    end
  end,
}
