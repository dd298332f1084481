-- File modes as configurations write them: four octal digits, "0644".
local M = {}

-- A validate function for mode attributes: "0644" or "644" (setuid, setgid and sticky bits
-- included: "1777").
function M.validate(value)
  if not value:match("^0?[0-7][0-7][0-7]$") and not value:match("^[0-7][0-7][0-7][0-7]$") then
    return string.format("%q is not a file mode such as \"0644\" or \"0755\"", value)
  end
  return nil
end

-- The four-digit spelling, so that "644" and "0644" are the same mode.
function M.normal(value)
  local bits = tonumber(value, 8)
  return bits and string.format("%04o", bits) or value
end

return M
