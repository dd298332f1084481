-- Quoting and the checks the resources share.
local pgwire = require("lib.pgwire")

local M = {}

M.literal = pgwire.literal
M.identifier = pgwire.identifier

-- PostgreSQL's booleans as text ("t" / "f").
function M.bool(text)
  return text == "t"
end

function M.unset(value)
  return value == nil or value == ""
end

return M
