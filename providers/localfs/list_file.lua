-- list "localfs_file": the files in a directory whose names match a glob (`terraform query`).
local tf = require("luaform")
local listing = require("lib.listing")

return tf.list_resource {
  description = "The files in a directory whose names match a pattern",
  schema = listing.filters("files"),
  -- Each file is named by its path, as its identity; with include_resource the host reads it
  -- as an import by that identity would.
  list = function(request, emit, client)
    listing.walk(client, "file", request.config, function(path)
      return emit { identity = { path = path }, display_name = path }
    end)
  end,
}
