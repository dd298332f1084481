-- resource "localfs_directory": a directory and its permission. Deleting it removes only an
-- empty directory: files put there by something else are never deleted with it.
local tf = require("luaform")
local by_path = require("lib.by_path")
local mode = require("lib.mode")

-- Records the directory's permission as it is on disk (drift shows up in the next plan), or
-- marks it gone when no directory is there any more.
local function record(d, client, path)
  local found = client:stat(path)
  if found == nil or found.type ~= "directory" then
    d:set_id("")
    return
  end
  d:set("path", path)
  if found.mode ~= nil then -- nil on Windows, which has no permission bits
    d:set("permission", found.mode)
  end
end

return tf.resource {
  description = "A directory on the local disk",
  schema = {
    path = tf.string {
      required = true,
      force_new = true,
      description = "Path of the directory; relative paths start from the provider's root. "
        .. "Missing parents are created with the same permission",
    },
    permission = tf.string {
      optional = true,
      default = "0755",
      validate = mode.validate,
      state_func = mode.normal,
      description = "Permission bits of the directory, in octal; set exactly, whatever the umask",
    },
  },

  create = function(d, client)
    local path = d:get("path")
    local found = client:stat(path)
    if found ~= nil and found.type ~= "directory" then
      error(client:resolve(path) .. " exists and is not a directory")
    end
    client:mkdir(path, d:get("permission"))
    -- mkdir leaves a directory that was already there alone: the configured permission wins.
    client:chmod(path, d:get("permission"))
    d:set_id(path)
    record(d, client, path)
  end,

  read = function(d, client)
    record(d, client, d:id())
  end,

  update = function(d, client)
    client:chmod(d:id(), d:get("permission"))
    record(d, client, d:id())
  end,

  delete = function(d, client)
    if client:stat(d:id()) ~= nil then
      client:rmdir(d:id())
    end
  end,

  -- The path is the id and the identity: import takes it either way.
  identity = by_path.identity("Path of the directory"),
  import = by_path.import,
}
