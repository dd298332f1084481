-- sqlite_table: a table of the database. A new name renames it and columns added at the end
-- are added in place; any other change to the columns replaces the table.
local tf = require("luaform")
local sqlite3 = require("lib.sqlite3")

local function column_definitions(columns)
  local parts = {}
  for _, column in ipairs(columns) do
    parts[#parts + 1] = sqlite3.identifier(column.name) .. " " .. column.type
  end
  return table.concat(parts, ", ")
end

local function read_into(d, client, name)
  local columns = client:columns(name)
  if columns == nil then
    d:set_id("")
    return
  end
  d:set("name", name)
  d:set("columns", columns)
end

return tf.resource {
  description = "A table of the SQLite database",
  schema = {
    name = tf.string { required = true, description = "The table's name" },
    columns = tf.list_block {
      min_items = 1,
      description = "The table's columns, in order",
      schema = {
        name = tf.string { required = true },
        type = tf.string { optional = true, default = "TEXT" },
      },
    },
  },

  customize_diff = function(d)
    if d:is_new_resource() then
      return
    end
    -- The id is the table's name: a rename gives it a new one.
    if d:has_change("name") then
      d:set_new_computed("id")
    end
    if not d:has_change("columns") then
      return
    end
    local old, new = d:get_change("columns")
    if #new < #old then
      d:force_new("columns")
      return
    end
    for i, column in ipairs(old) do
      if new[i].name ~= column.name or new[i].type ~= column.type then
        d:force_new("columns")
        return
      end
    end
  end,

  create = function(d, client)
    local name = d:get("name")
    client:query("create table " .. sqlite3.identifier(name) .. " (" ..
      column_definitions(d:get("columns")) .. ");")
    d:set_id(name)
    read_into(d, client, name)
  end,

  read = function(d, client)
    read_into(d, client, d:id())
  end,

  update = function(d, client)
    -- The stored name: a rename planned the id unknown.
    local name = d:get_change("name")
    local statements = {}
    if d:has_change("name") then
      statements[#statements + 1] = "alter table " .. sqlite3.identifier(name) ..
        " rename to " .. sqlite3.identifier(d:get("name")) .. ";"
      name = d:get("name")
    end
    local old, new = d:get_change("columns")
    for i = #old + 1, #new do
      statements[#statements + 1] = "alter table " .. sqlite3.identifier(name) ..
        " add column " .. column_definitions({ new[i] }) .. ";"
    end
    client:query("begin; " .. table.concat(statements, " ") .. " commit;")
    d:set_id(name)
    read_into(d, client, name)
  end,

  delete = function(d, client)
    client:query("drop table if exists " .. sqlite3.identifier(d:id()) .. ";")
  end,

  -- Import by name: read finds the rest.
  import = function() end,
}
