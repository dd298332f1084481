-- Whole-file reads and writes for the localfs provider. Every function raises a Lua error with
-- the path and the system's reason, which the host turns into a diagnostic for the resource.

local M = {}

-- errno for "no such file or directory": a missing file is an answer here, not a failure.
local ENOENT = 2

-- The file's bytes, or nil when it does not exist.
function M.read(path)
  local file, message, code = io.open(path, "rb")
  if not file then
    if code == ENOENT then
      return nil
    end
    -- io.open's message starts with the path.
    error("cannot open " .. tostring(message), 0)
  end
  local content, read_error = file:read("a")
  file:close()
  if content == nil then
    error("cannot read " .. path .. ": " .. tostring(read_error), 0)
  end
  return content
end

-- Replaces the file's content, creating the file when needed (its directory must exist).
function M.write(path, content)
  local file, message = io.open(path, "wb")
  if not file then
    error("cannot write " .. tostring(message), 0)
  end
  local ok, write_error = file:write(content)
  local closed, close_error = file:close()
  if not ok or not closed then
    error("cannot write " .. path .. ": " .. tostring(write_error or close_error), 0)
  end
end

-- Removes the file; a file that is already gone counts as removed.
function M.remove(path)
  local ok, message, code = os.remove(path)
  if not ok and code ~= ENOENT then
    error("cannot remove " .. tostring(message), 0)
  end
end

return M
