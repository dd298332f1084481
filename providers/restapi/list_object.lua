-- list "restapi_object": the objects of a collection (`terraform query`), read page by page
-- through the listing's Link rel="next" headers, and only as many pages as the limit needs.
local tf = require("luaform")
local objects = require("lib.objects")

return tf.list_resource {
  description = "The objects of a collection of a JSON API",
  schema = {
    path = tf.string { required = true, description = "Collection path to list, as `/posts`" },
    query = tf.map(tf.string) {
      optional = true,
      description = "Query parameters of the listing: the API's own filters and page size",
    },
    headers = tf.map(tf.string) { optional = true, description = "Headers of every request" },
    results_key = tf.string {
      optional = true,
      description = "Field of the listing that holds the objects, when it is not the answer itself",
    },
    id_attribute = tf.string {
      optional = true,
      default = "id",
      description = "Field of each object holding its id (a dotted path: `meta.uid`)",
    },
    display_field = tf.string {
      optional = true,
      description = "Field of each object shown as its name (a dotted path); by default the "
        .. "name is PATH/ID",
    },
  },
  -- Each object is named by the collection path and its id. With include_resource the host
  -- reads each one at PATH/ID, as an import by that identity would: a listing may hold less of
  -- an object than the object itself.
  list = function(request, emit, client)
    local config = request.config
    tf.http.paginate(client, config.path, {
      query = config.query,
      headers = config.headers,
      items = config.results_key,
      each = function(object)
        local id = objects.id_text(objects.field(object, config.id_attribute))
        local shown = config.display_field and objects.field(object, config.display_field)
        if shown == nil then
          -- An object without an id is left out, with a warning that names it so.
          shown = id and ("%s/%s"):format(config.path, id)
            or ("an object of %s without %q"):format(config.path, config.id_attribute)
        end
        return emit { identity = { path = config.path, id = id }, display_name = tostring(shown) }
      end,
    })
  end,
}
