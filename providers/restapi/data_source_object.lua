-- data "restapi_object": finds one object in a listing (following its Link rel="next" pages)
-- by the value of one of its fields.
local tf = require("luaform")
local objects = require("lib.objects")

return tf.data_source {
  description = "An object of a JSON API found by a field's value",
  schema = {
    path = tf.string { required = true, description = "Collection path to list, as `/posts`" },
    search_key = tf.string {
      required = true,
      description = "Field to match (a dotted path: `meta.name`)",
    },
    search_value = tf.string { required = true, description = "Value it must have" },
    results_key = tf.string {
      optional = true,
      description = "Field of the listing that holds the objects, when it is not the answer itself",
    },
    query = tf.map(tf.string) { optional = true, description = "Query parameters of the listing" },
    headers = tf.map(tf.string) { optional = true, description = "Headers of every request" },
    id_attribute = tf.string {
      optional = true,
      default = "id",
      description = "Field of the object holding its id",
    },
    api_response = tf.string { computed = true, description = "The object found, as JSON" },
    api_data = tf.map(tf.string) {
      computed = true,
      description = "Its top-level fields: scalars as text, the rest as JSON",
    },
  },
  read = function(d, client)
    local results_key = d:get("results_key")
    local listing = tf.http.paginate(client, d:get("path"), {
      query = d:get("query"),
      headers = d:get("headers"),
      items = results_key ~= "" and results_key or nil,
    })
    local wanted = d:get("search_value")
    for _, object in ipairs(listing) do
      local value = objects.field(object, d:get("search_key"))
      if objects.id_text(value) == wanted or tostring(value) == wanted then
        local id = objects.id_text(objects.field(object, d:get("id_attribute")))
        if id == nil then
          error(("the object found has no %q field"):format(d:get("id_attribute")))
        end
        d:set_id(id)
        objects.record_response(d, object)
        return
      end
    end
    error(("no object in %s has %s = %q (%d looked at)")
      :format(d:get("path"), d:get("search_key"), wanted, #listing))
  end,
}
