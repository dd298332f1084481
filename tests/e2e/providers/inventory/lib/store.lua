-- Records saved as Lua table constructors, one file per record, read back with load().
local M = {}

local function serialize(value, out)
  local kind = type(value)
  if kind == "table" then
    out[#out + 1] = "{"
    local keys = {}
    for k in pairs(value) do
      keys[#keys + 1] = k
    end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    for _, k in ipairs(keys) do
      out[#out + 1] = "["
      serialize(k, out)
      out[#out + 1] = "]="
      serialize(value[k], out)
      out[#out + 1] = ","
    end
    out[#out + 1] = "}"
  elseif kind == "string" then
    out[#out + 1] = string.format("%q", value)
  else
    out[#out + 1] = tostring(value)
  end
end

local Store = {}
Store.__index = Store

function M.new(root)
  return setmetatable({ root = root }, Store)
end

function Store:path(kind, id)
  return self.root .. "/" .. kind .. "-" .. id .. ".rec"
end

function Store:put(kind, id, record)
  local out = { "return " }
  serialize(record, out)
  local file = assert(io.open(self:path(kind, id), "w"))
  file:write(table.concat(out), "\n")
  file:close()
end

-- The record, or nil when its file is gone.
function Store:get(kind, id)
  local file = io.open(self:path(kind, id), "r")
  if not file then
    return nil
  end
  local text = file:read("a")
  file:close()
  return assert(load(text, "=" .. kind .. "-" .. id, "t", {}))()
end

function Store:delete(kind, id)
  os.remove(self:path(kind, id))
end

return M
