-- list "localfs_directory": the directories in a directory whose names match a glob
-- (`terraform query`).
local tf = require("luaform")
local listing = require("lib.listing")

return tf.list_resource {
  description = "The directories in a directory whose names match a pattern",
  schema = listing.filters("directories"),
  list = function(request, emit, client)
    listing.walk(client, "directory", request.config, function(path)
      return emit { identity = { path = path }, display_name = path }
    end)
  end,
}
