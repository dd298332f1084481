-- luaform_attributes: the types of attributes (tf.string, tf.list(T), tf.object { ... }, ...),
-- which called with an options table declare an attribute, and tf.env for their defaults.
-- Internal to the SDK: scripts get these through require("luaform"); this module's names may
-- change without notice.

local check = require("luaform_check")
local attribute_check = require("luaform_attribute_check")

local CALLER = check.CALLER
-- Where the script declared an attribute: the schema's rules report there.
local declared_at = require("luaform_diagnostics").declared_at
local NAME_PATTERN = check.NAME_PATTERN
local sorted_keys, spec_of = check.sorted_keys, check.spec_of
local is_type, attribute_problem = attribute_check.is_type, attribute_check.attribute_problem

local M = {}

-- Type descriptors are tables tagged kind = "type"; calling one with an options table gives
-- an attribute spec: { kind = "attribute", type = <descriptor>, required = ..., ... }.
-- Sealed: getmetatable gives its name, so that no script can change what a type does for
-- every later call.
local type_metatable = { __metatable = "luaform.type" }

function type_metatable.__call(t, options)
  local problem = attribute_problem(t, options)
  if problem then
    error(problem, CALLER)
  end
  return spec_of({ kind = "attribute", type = t, declared_at = declared_at(CALLER) }, options)
end

local function new_type(name, element)
  return setmetatable({ kind = "type", name = name, element = element }, type_metatable)
end

M.string = new_type("string")
M.number = new_type("number")
M.bool = new_type("bool")
-- Any value, with its own type: for function parameters and results only.
M.dynamic = new_type("dynamic")

local function collection(name)
  return function(element)
    if not is_type(element) then
      error(string.format("tf.%s expects an element type such as tf.string, got %s", name,
        type(element)), CALLER)
    end
    return new_type(name, element)
  end
end

M.list = collection("list")
M.set = collection("set")
M.map = collection("map")

-- An object type, for structured values that are not configured as blocks (most often
-- computed results): tf.list(tf.object { name = tf.string, size = tf.number }) { computed = true }.
function M.object(attributes)
  if type(attributes) ~= "table" then
    error("tf.object expects a table of attribute types, as in tf.object { name = tf.string }",
      CALLER)
  end
  for _, name in ipairs(sorted_keys(attributes)) do
    if type(name) ~= "string" or not name:match(NAME_PATTERN) then
      error(string.format("tf.object: attribute name %q must be lowercase letters, digits and _",
        name), CALLER)
    end
    if not is_type(attributes[name]) then
      error(string.format("tf.object: attribute %q must be a type such as tf.string, got %s",
        name, type(attributes[name])), CALLER)
    end
  end
  local t = new_type("object")
  t.attributes = attributes
  return t
end

-- A default function reading the first of the environment variables `names` (a name or a
-- list of names) that is set and not empty, else `fallback` (which may be nil: no default).
-- Environment values are text; the host converts them to the attribute's type ("1", "true",
-- "TRUE" for a bool, as Go's strconv reads them), told the variable's name (the second result)
-- for the error when one is not. The third result says where the value comes from, whatever
-- the environment holds, for --docs: { environment = names, fallback = fallback }.
function M.env(names, fallback)
  if type(names) == "string" then
    names = { names }
  end
  if type(names) ~= "table" or #names == 0 then
    error('tf.env expects a variable name or a list of them, as in tf.env("EXAMPLE_TOKEN")',
      CALLER)
  end
  for i, name in ipairs(names) do
    if type(name) ~= "string" then
      error(string.format("tf.env: name %d must be a string, got %s", i, type(name)), CALLER)
    end
  end
  local source = { environment = { table.unpack(names) }, fallback = fallback }
  return function()
    for _, name in ipairs(names) do
      local value = os.getenv(name)
      if value ~= nil and value ~= "" then
        return value, name, source
      end
    end
    return fallback, nil, source
  end
end

return M
