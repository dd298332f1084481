-- Text helpers shared by the data source and the lines function.

local M = {}

-- The content split at "\n"; a final newline does not start another line.
function M.split_lines(content)
  local lines = {}
  for line in content:gmatch("([^\n]*)\n") do
    lines[#lines + 1] = line
  end
  local rest = content:match("([^\n]+)$")
  if rest then
    lines[#lines + 1] = rest
  end
  return lines
end

return M
