-- A client of one database file through the sqlite3 command-line program: each call runs the
-- program once with the statements as its input, and reads rows back in its JSON mode.
local tf = require("luaform")

local M = {}

-- A text as an SQL string literal.
function M.literal(text)
  return "'" .. tostring(text):gsub("'", "''") .. "'"
end

-- A name as an SQL identifier.
function M.identifier(name)
  return '"' .. tostring(name):gsub('"', '""') .. '"'
end

function M.client(database, program)
  local client = { database = database, program = program or "sqlite3" }

  -- Runs `sql` (statements separated by semicolons) and returns the rows of the last
  -- statement that gives some, as tables of column name to value.
  function client:query(sql)
    local result = tf.exec.run {
      self.program, "-bail", "-json", "-cmd", ".timeout 5000", self.database,
      stdin = sql,
      timeout = "60s",
    }
    if result.stdout:match("^%s*$") then
      return {}
    end
    return tf.json.decode(result.stdout)
  end

  -- The columns of a table in their order ({ name, type }), or nil when there is no such table.
  function client:columns(table_name)
    local rows = self:query("select name, type from pragma_table_info(" ..
      M.literal(table_name) .. ") order by cid;")
    if #rows == 0 then
      return nil
    end
    local columns = {}
    for _, row in ipairs(rows) do
      columns[#columns + 1] = { name = row.name, type = row.type }
    end
    return columns
  end

  return client
end

return M
