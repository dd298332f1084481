-- semverlite: stands for a pure-Lua library from LuaRocks, copied into the provider directory as
-- the rock lays its modules out (semverlite/init.lua, semverlite/compare.lua). Its modules
-- require each other by their own names, as the rock's do.
local compare = require("semverlite.compare")

local M = {}

function M.parse(text)
  local major, minor, patch = text:match("^v?(%d+)%.(%d+)%.(%d+)$")
  if not major then
    return nil, "not a version: " .. text
  end
  return { major = tonumber(major), minor = tonumber(minor), patch = tonumber(patch) }
end

M.newer = compare.newer

return M
