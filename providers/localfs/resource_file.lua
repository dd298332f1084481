-- resource "localfs_file": a file whose whole content Terraform manages.
local tf = require("luaform")
local mode = require("lib.mode")

-- Records what is on disk now, so a change made outside Terraform shows up as drift.
local function record(d, client, path, content)
  d:set("content", content)
  d:set("sha256", tf.hash.sha256(content))
  d:set("size", #content)
  d:set("file_permission", client:stat(path).mode)
end

-- Writes the file with its permission, creating missing directories above it.
local function write(d, client, path)
  local content = d:get("content")
  client:make_parents(path, d:get("directory_permission"))
  client:write(path, content)
  client:chmod(path, d:get("file_permission"))
  record(d, client, path, content)
end

return tf.resource {
  description = "A file on the local disk with content managed by Terraform",
  schema = {
    path = tf.string {
      required = true,
      force_new = true,
      description = "Path of the file; relative paths start from the provider's root",
    },
    content = tf.string {
      optional = true,
      default = "",
      description = "The file's whole content",
    },
    sha256 = tf.string { computed = true, description = "SHA-256 of the content, hex" },
    size = tf.number { computed = true, description = "Size of the content in bytes" },
    file_permission = tf.string {
      optional = true,
      default = "0644",
      validate = mode.validate,
      state_func = mode.normal,
      description = "Permission bits of the file, in octal; set exactly, whatever the umask",
    },
    directory_permission = tf.string {
      optional = true,
      default = "0755",
      validate = mode.validate,
      state_func = mode.normal,
      description = "Permission bits of the directories created above the file when they are "
        .. "missing (directories already there are left alone)",
    },
  },

  create = function(d, client)
    local path = d:get("path")
    write(d, client, path)
    -- The id is the path as written in the configuration, which is also what import takes.
    d:set_id(path)
  end,

  read = function(d, client)
    local path = d:id()
    local content = client:read(path)
    if content == nil then
      d:set_id("")
      return
    end
    -- After an import only the id is known; the path is the id.
    d:set("path", path)
    record(d, client, path, content)
  end,

  update = function(d, client)
    write(d, client, d:get("path"))
  end,

  delete = function(d, client)
    client:remove(d:get("path"))
  end,

  -- The path names the file for life (changing it replaces the resource), so it is the
  -- identity: the CLI stores it with the state, and an import block may give
  -- identity = { path = "..." } instead of an id.
  identity = {
    schema = {
      path = tf.string { required_for_import = true, description = "Path of the file" },
    },
  },

  -- `tofu import` and import blocks give the path as the id, or as the identity's path.
  import = function(d)
    local identity = d:identity()
    if identity then
      d:set_id(identity.path)
    end
  end,
}
