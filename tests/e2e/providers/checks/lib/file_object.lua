-- Objects of the checks provider are files named PREFIX-ID.txt; this is their read.
local M = {}

-- A read function for objects stored as `prefix .. "-" .. id .. ".txt"`: an object whose file
-- is gone is gone.
function M.read(prefix)
  return function(d)
    local file = io.open(prefix .. "-" .. d:id() .. ".txt")
    if not file then
      d:set_id("")
      return
    end
    file:close()
  end
end

return M
