-- What localfs_file and localfs_directory share: the path names the object for life (changing
-- it replaces the resource), so it is both the id and the identity. The CLI stores the identity
-- with the state, and `tofu import` or an import block may give the path as the id, or as
-- identity = { path = "..." }.
local tf = require("luaform")

local M = {}

-- The identity declaration, with the description of what the path names.
function M.identity(description)
  return {
    schema = {
      path = tf.string { required_for_import = true, description = description },
    },
  }
end

-- The import function: the id is the path, whichever way it was given.
function M.import(d)
  local identity = d:identity()
  if identity then
    d:set_id(identity.path)
  end
end

return M
