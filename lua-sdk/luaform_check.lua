-- luaform_check: what every check of the SDK's declarations shares (option tables, names,
-- descriptions). Internal to the SDK: scripts get these through require("luaform"), which
-- assembles the public table; this module's other names may change without notice.

local M = {}

-- Level for error(): the script line that called the public function raising the error.
M.CALLER = 2

-- Names Terraform accepts for attributes (helper/schema's rule).
M.NAME_PATTERN = "^[a-z_][a-z0-9_]*$"

-- `description = tf.markdown [[...]]`: documentation written in markdown, which the CLI and
-- documentation tools render as such (a plain string is plain text). Lua reads
-- `tf.markdown "a" .. "b"` as `(tf.markdown "a") .. "b"`, so markdown joins with text (on
-- either side) into markdown. Sealed, as every metatable the SDK hands out.
local Markdown = { __metatable = "luaform.markdown" }

local function markdown_text(value)
  if type(value) == "table" and value.kind == "markdown" then
    return value.text
  end
  if type(value) == "string" or type(value) == "number" then
    return tostring(value)
  end
  error("tf.markdown text can be joined only with text, not a " .. type(value), 3)
end

function Markdown.__concat(a, b)
  return setmetatable({ kind = "markdown", text = markdown_text(a) .. markdown_text(b) }, Markdown)
end

function M.markdown(text)
  if type(text) ~= "string" then
    error("tf.markdown expects the text, as in tf.markdown \"Use `name` ...\"", 2)
  end
  return setmetatable({ kind = "markdown", text = text }, Markdown)
end

-- The problem with a `description` option (a string or tf.markdown), or nil.
function M.description_problem(what, description)
  if description == nil or type(description) == "string"
      or (type(description) == "table" and description.kind == "markdown") then
    return nil
  end
  return string.format("%s: description must be a string or tf.markdown \"...\", got %s", what,
    type(description))
end

-- The keys of `t` as sorted strings, so that messages name them in a stable order.
function M.sorted_keys(t)
  local keys = {}
  for k in pairs(t) do
    keys[#keys + 1] = tostring(k)
  end
  table.sort(keys)
  return keys
end

-- An error message for the first key of `t` that `allowed` does not list, or nil. Checked
-- unsorted first: a provider declares thousands of option tables, nearly all of them valid,
-- and only a message needs the keys in order.
function M.unknown_key(what, t, allowed)
  local any = false
  for key in pairs(t) do
    if allowed[tostring(key)] == nil then
      any = true
      break
    end
  end
  if not any then
    return nil
  end
  for _, key in ipairs(M.sorted_keys(t)) do
    if allowed[key] == nil then
      return string.format("%s: unknown option %q (valid options: %s)", what, key,
        table.concat(M.sorted_keys(allowed), ", "))
    end
  end
  return nil
end

-- A copy of a checked options table with its `kind` (and any other fixed fields) set.
function M.spec_of(fixed, options)
  local spec = {}
  for k, v in pairs(options) do
    spec[k] = v
  end
  for k, v in pairs(fixed) do
    spec[k] = v
  end
  return spec
end

return M
