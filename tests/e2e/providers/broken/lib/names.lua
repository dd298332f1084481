-- A helper module that raises, as an author's own validation code does.
local names = {}

function names.check(name)
  if name:find(" ", 1, true) then
    error("Validation failed: the name \"" .. name .. "\" has a space") -- MARK: helper
  end
  return name
end

return names
