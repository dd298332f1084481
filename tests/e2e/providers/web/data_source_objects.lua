-- data "web_objects": the names of every object, read page by page (the API's Link headers).
local tf = require("luaform")

return tf.data_source {
  description = "Every object's name",
  schema = {
    per_page = tf.number { required = true },
    names = tf.list(tf.string) { computed = true },
  },
  read = function(d, client)
    local names = {}
    local query = { per_page = d:get("per_page") }
    local objects = tf.http.paginate(client, "/objects", { query = query })
    for i, object in ipairs(objects) do
      names[i] = object.name
    end
    d:set_id("objects")
    d:set("names", names)
  end,
}
