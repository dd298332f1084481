-- The localfs provider: files on the machine that runs OpenTofu/Terraform.
local tf = require("luaform")
local fs = require("lib.fs")

-- The client every resource and data source receives: file operations that resolve relative
-- paths against the provider's `root`.
local function new_client(root)
  local client = { root = root }

  -- Absolute paths are used as given; relative ones start from `root` when it is set, else
  -- from the working directory of the CLI (which starts the provider there).
  function client:resolve(path)
    if path:sub(1, 1) == "/" or self.root == nil then
      return path
    end
    return (self.root:gsub("/+$", "")) .. "/" .. path
  end

  function client:read(path)
    return fs.read(self:resolve(path))
  end

  function client:write(path, content)
    fs.write(self:resolve(path), content)
  end

  function client:remove(path)
    fs.remove(self:resolve(path))
  end

  -- nil when nothing is at `path`, else { type = "file" | "directory" | "other", mode, size }.
  function client:stat(path)
    return tf.fs.stat(self:resolve(path))
  end

  function client:chmod(path, mode)
    tf.fs.chmod(self:resolve(path), mode)
  end

  -- Creates the directory and any missing parents with `mode`.
  function client:mkdir(path, mode)
    tf.fs.mkdir(self:resolve(path), mode)
  end

  -- Creates the directories above `path` that are missing, with `mode`.
  function client:make_parents(path, mode)
    local parent = self:resolve(path):match("^(.*)/[^/]*$")
    if parent ~= nil and parent ~= "" and tf.fs.stat(parent) == nil then
      tf.fs.mkdir(parent, mode)
    end
  end

  function client:rmdir(path)
    tf.fs.rmdir(self:resolve(path))
  end

  -- The names in the directory at `path`, sorted.
  function client:list(path)
    return tf.fs.list(self:resolve(path))
  end

  return client
end

return tf.provider {
  description = "Files on the local disk",
  schema = {
    root = tf.string {
      optional = true,
      default = tf.env("LOCALFS_ROOT"),
      description = tf.markdown("Directory that relative paths start from (default: "
        .. "`$LOCALFS_ROOT`, else the working directory)"),
    },
  },
  configure = function(config, unknown)
    if unknown.root then
      -- It comes from a resource not created yet; the CLI configures again before applying.
      return nil
    end
    local root = config.root
    if root == "" then
      root = nil
    end
    return new_client(root)
  end,
}
