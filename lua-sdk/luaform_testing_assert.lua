-- luaform_testing_assert: the assertions of the testing kit (equal, has_error, ...), each
-- raising an error that names the line of the test that called it, and the readable form of
-- values their messages use. Internal to the testing kit: test files get these through
-- require("luaform_testing"); this module's other names may change without notice.

local values = require("luaform_values")
local json = require("luaform_json")

local M = {}

local unknown = values.unknown

-- The keys of `t` sorted by their text, so that messages list them in a stable order.
function M.sorted_keys(t)
  local keys = {}
  for k in pairs(t) do
    keys[#keys + 1] = k
  end
  table.sort(keys, function(a, b)
    return tostring(a) < tostring(b)
  end)
  return keys
end

-- A short readable form of any value, for failure messages.
local function show(v, depth)
  depth = depth or 0
  if v == unknown then
    return "(known after apply)"
  elseif v == json.null then
    return "null"
  elseif type(v) == "string" then
    return string.format("%q", v)
  elseif type(v) ~= "table" then
    return tostring(v)
  elseif depth > 3 then
    return "{...}"
  end
  local parts = {}
  for _, k in ipairs(M.sorted_keys(v)) do
    local key = math.type(k) == "integer" and "" or tostring(k) .. " = "
    parts[#parts + 1] = key .. show(v[k], depth + 1)
  end
  return "{ " .. table.concat(parts, ", ") .. " }"
end
M.show = show

-- Where `actual` and `expected` first differ: the path, and the two values there.
function M.difference(actual, expected, path)
  if actual == expected then
    return nil
  end
  if type(actual) ~= "table" or type(expected) ~= "table" or actual == unknown
      or expected == unknown then
    return path, actual, expected
  end
  local keys = {}
  for k in pairs(expected) do
    keys[k] = true
  end
  for k in pairs(actual) do
    keys[k] = true
  end
  for _, k in ipairs(M.sorted_keys(keys)) do
    local step = math.type(k) == "integer" and "[" .. k .. "]" or "." .. tostring(k)
    local where, a, e = M.difference(actual[k], expected[k], path .. step)
    if where then
      return where, a, e
    end
  end
  return nil
end

-- Deep equality: tables are equal when every key holds equal values.
function M.equal(actual, expected, message)
  local where, a, e = M.difference(actual, expected, "")
  if where then
    local at = where ~= "" and " at " .. where or ""
    error(string.format("%sexpected %s%s, got %s", message and message .. ": " or "", show(e), at,
      show(a)), 2)
  end
end

function M.truthy(value, message)
  if not value then
    error(message or ("expected a true value, got " .. show(value)), 2)
  end
end

-- `text` contains `part` (plain text, not a pattern).
function M.contains(text, part, message)
  if type(text) ~= "string" or not text:find(part, 1, true) then
    error(string.format("%sexpected text containing %q, got %s",
      message and message .. ": " or "", part, show(text)), 2)
  end
end

local function diagnostics_of(result)
  if type(result) ~= "table" then
    return {}
  end
  return result.diagnostics or result
end

local function describe_diagnostic(d)
  local text = d.severity .. ": " .. d.summary
  if d.attribute then
    text = text .. " [" .. d.attribute .. "]"
  end
  if d.detail ~= "" then
    text = text .. ": " .. d.detail
  end
  return text
end

-- The error diagnostics of a result (or of a list of diagnostics).
function M.errors(result)
  local found = {}
  for _, d in ipairs(diagnostics_of(result)) do
    if d.severity == "error" then
      found[#found + 1] = d
    end
  end
  return found
end

-- The diagnostics, one indented line each, for failure messages.
function M.describe_all(diagnostics)
  local lines = {}
  for _, d in ipairs(diagnostics) do
    lines[#lines + 1] = "  " .. describe_diagnostic(d)
  end
  return table.concat(lines, "\n")
end

function M.no_errors(result, message)
  local errors = M.errors(result)
  if #errors > 0 then
    error(string.format("%sexpected no errors, got:\n%s", message and message .. ": " or "",
      M.describe_all(errors)), 2)
  end
end

-- An attribute's address as diagnostics give it ("disk.0.size"), also from the spelling the
-- kit took before ("disk[0].size", 'tags["env"]').
local function address_of(attribute)
  if attribute == nil then return nil end
  return (attribute:gsub('%["(.-)"%]', ".%1"):gsub("%[(%d+)%]", ".%1"))
end

-- The first error whose summary or detail contains `text` (and, when given, is about
-- `attribute`); fails when there is none.
function M.has_error(result, text, attribute)
  attribute = address_of(attribute)
  for _, d in ipairs(M.errors(result)) do
    local says = (d.summary .. "\n" .. d.detail):find(text, 1, true)
    if says and (attribute == nil or d.attribute == attribute) then
      return d
    end
  end
  error(string.format("expected an error containing %q%s, got:\n%s", text,
    attribute and " about " .. attribute or "", M.describe_all(diagnostics_of(result))), 2)
end

-- Runs fn and returns the message of the error it raises, which must contain `text`.
function M.raises(fn, text)
  local ok, problem = pcall(fn)
  if ok then
    error("expected an error" .. (text and " containing " .. string.format("%q", text) or ""), 2)
  end
  problem = tostring(problem)
  if text and not problem:find(text, 1, true) then
    error(string.format("expected an error containing %q, got %q", text, problem), 2)
  end
  return problem
end

return M
