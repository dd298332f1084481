-- semverlite.compare: whether one parsed version is newer than another.
local M = {}

function M.newer(a, b)
  if a.major ~= b.major then
    return a.major > b.major
  end
  if a.minor ~= b.minor then
    return a.minor > b.minor
  end
  return a.patch > b.patch
end

return M
