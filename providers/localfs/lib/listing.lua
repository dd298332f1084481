-- What localfs's list resources share: the entries of one kind ("file" or "directory") in a
-- directory whose names match a glob, as paths written the way a configuration writes them.
local tf = require("luaform")

local M = {}

-- The filters of a list block that lists `what` ("files", "directories").
function M.filters(what)
  return {
    directory = tf.string {
      optional = true,
      default = ".",
      validate = tf.v.not_empty(),
      description = "Directory to look in; relative paths start from the provider's root",
    },
    pattern = tf.string {
      optional = true,
      default = "*",
      validate = tf.v.not_empty(),
      description = tf.markdown(("Glob the names of the %s must match: `*` stands for any "
        .. "characters, `?` for any one, everything else for itself (`*.txt`, `report-????.csv`)")
        :format(what)),
    },
    recursive = tf.bool {
      optional = true,
      default = false,
      description = ("Also list the %s in every directory below (symbolic links to "
        .. "directories are followed)"):format(what),
    },
  }
end

-- A Lua pattern that matches a whole name exactly when `glob` does.
function M.glob_pattern(glob)
  local body = glob:gsub("[%^%$%(%)%%%.%[%]%+%-%*%?]", function(c)
    if c == "*" then
      return ".*"
    elseif c == "?" then
      return "."
    end
    return "%" .. c
  end)
  return "^" .. body .. "$"
end

-- `name` in `directory` as a configuration writes it: "a.txt" in ".", "logs/a.txt" in "logs"
-- or "logs/", "/a.txt" in "/".
function M.join(directory, name)
  if directory == "." then
    return name
  end
  return (directory:gsub("/+$", "")) .. "/" .. name
end

-- The names in `directory`. The directory asked for must be there (an error ends the listing);
-- one below it that cannot be read is a warning, and the others are still listed.
local function names_in(client, directory, top)
  if top then
    local found = client:stat(directory)
    if found == nil or found.type ~= "directory" then
      error(("%s %s"):format(client:resolve(directory),
        found == nil and "does not exist" or "is not a directory"))
    end
    return client:list(directory)
  end
  local ok, names = pcall(client.list, client, directory)
  if ok then
    return names
  end
  tf.warn { summary = "A directory was not listed", detail = tostring(names) }
  return {}
end

-- Calls found(path) for each entry of `kind` in `config.directory` (and, when
-- `config.recursive`, in every directory below) whose name matches `config.pattern`, in name
-- order, a directory's entries before the next entry of its parent. Stops as soon as found
-- returns false.
function M.walk(client, kind, config, found)
  local pattern = M.glob_pattern(config.pattern)
  local function walk(directory, top)
    for _, name in ipairs(names_in(client, directory, top)) do
      local path = M.join(directory, name)
      local entry = client:stat(path)
      if entry ~= nil and entry.type == kind and name:match(pattern) and not found(path) then
        return false
      end
      if entry ~= nil and entry.type == "directory" and config.recursive
        and not walk(path, false) then
        return false
      end
    end
    return true
  end
  walk(config.directory, true)
end

return M
