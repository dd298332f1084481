-- sqlite_query: the rows of a query, each a map of column name to its value as text.
local tf = require("luaform")

return tf.data_source {
  description = "The rows a query gives",
  schema = {
    sql = tf.string { required = true },
    rows = tf.list(tf.map(tf.string)) { computed = true },
  },
  read = function(d, client)
    local rows = {}
    for _, row in ipairs(client:query(d:get("sql"))) do
      local texts = {}
      for column, value in pairs(row) do
        texts[column] = tostring(value)
      end
      rows[#rows + 1] = texts
    end
    d:set_id(d:get("sql"))
    d:set("rows", rows)
  end,
}
