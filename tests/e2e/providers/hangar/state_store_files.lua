-- state_store "hangar_files": states in files of a directory, streamed in chunks of 256 bytes
-- so that every state the CLI reads or writes crosses the protocol in many chunks. It takes no
-- locks (a store without lock and unlock is granted every lock).
local tf = require("luaform")

local SUFFIX = ".tfstate"

local function path(config, id)
  return config.directory .. "/" .. id .. SUFFIX
end

return tf.state_store {
  description = "States in files of a directory",
  chunk_size = 256,
  schema = {
    directory = tf.string { required = true, description = "Where the state files go" },
  },
  configure = function(config)
    tf.fs.mkdir(config.directory, "755")
  end,
  states = function(config)
    local ids = {}
    for _, name in ipairs(tf.fs.list(config.directory)) do
      if name:sub(-#SUFFIX) == SUFFIX then
        ids[#ids + 1] = name:sub(1, -#SUFFIX - 1)
      end
    end
    return ids
  end,
  read = function(config, id)
    local file = io.open(path(config, id), "rb")
    if file == nil then
      return nil
    end
    local state = file:read("a")
    file:close()
    return state
  end,
  write = function(config, id, state)
    -- Written beside, then renamed over: a reader sees the old state or the new one.
    local file = assert(io.open(path(config, id) .. ".new", "wb"))
    file:write(state)
    file:close()
    assert(os.rename(path(config, id) .. ".new", path(config, id)))
  end,
  delete = function(config, id)
    assert(os.remove(path(config, id)))
  end,
}
