-- luaform_functions: tf.func, a provider-defined function (provider::NAME::X in a
-- configuration), and the check of its parameters. Internal to the SDK: scripts get it through
-- require("luaform"); this module's other names may change without notice.

local check = require("luaform_check")
local attribute_check = require("luaform_attribute_check")

local CALLER = check.CALLER
local NAME_PATTERN = check.NAME_PATTERN
local sorted_keys, unknown_key, spec_of = check.sorted_keys, check.unknown_key, check.spec_of
local description_problem = check.description_problem
local is_type = attribute_check.is_type

local M = {}

local PARAMETER_OPTIONS = { name = true, type = true, description = true, allow_null = true,
  allow_unknown = true }

-- The message for the first problem of a function parameter { name =, type =, ... }, or nil.
local function parameter_problem(what, p, seen)
  if type(p) ~= "table" then
    return string.format("%s must be a table such as { name = \"text\", type = tf.string }", what)
  end
  local problem = unknown_key(what, p, PARAMETER_OPTIONS)
  if problem then
    return problem
  end
  if type(p.name) ~= "string" or not p.name:match(NAME_PATTERN) then
    return string.format("%s: name must be lowercase letters, digits and _, got %s", what,
      type(p.name) == "string" and string.format("%q", p.name) or type(p.name))
  end
  if seen[p.name] then
    return string.format("%s: a parameter named %q is declared twice", what, p.name)
  end
  seen[p.name] = true
  if not is_type(p.type) then
    return string.format("%s (%s): type must be a type such as tf.string, got %s", what, p.name,
      type(p.type))
  end
  for _, flag in ipairs({ "allow_null", "allow_unknown" }) do
    if p[flag] ~= nil and type(p[flag]) ~= "boolean" then
      return string.format("%s (%s): %s must be true or false, got %s", what, p.name, flag,
        type(p[flag]))
    end
  end
  return description_problem(what, p.description)
end

local FUNCTION_OPTIONS = { summary = true, description = true, deprecated = true, params = true,
  variadic = true, returns = true, run = true }

-- The message for the first problem of a function definition, or nil when it is valid.
local function function_problem(definition)
  local what = "tf.func"
  if type(definition) ~= "table" then
    return "tf.func expects a table, as in tf.func { params = { ... }, returns = tf.string, "
      .. "run = function(...) end }"
  end
  local problem = unknown_key(what, definition, FUNCTION_OPTIONS)
  if problem then
    return problem
  end
  local params = definition.params
  if params ~= nil and type(params) ~= "table" then
    return "tf.func: params must be a list of parameters, as in { { name = \"x\", type = "
      .. "tf.string } }"
  end
  local seen = {}
  for i, p in ipairs(params or {}) do
    problem = parameter_problem(string.format("tf.func: params[%d]", i), p, seen)
    if problem then
      return problem
    end
  end
  if params ~= nil and #params ~= #sorted_keys(params) then
    return "tf.func: params must be a list (keys 1, 2, ...), in the order of the arguments"
  end
  if definition.variadic ~= nil then
    problem = parameter_problem("tf.func: variadic", definition.variadic, seen)
    if problem then
      return problem
    end
  end
  if not is_type(definition.returns) then
    return string.format("tf.func: returns must be a type such as tf.string, got %s",
      type(definition.returns))
  end
  if type(definition.run) ~= "function" then
    return string.format("tf.func: run must be a function, got %s", type(definition.run))
  end
  for _, text in ipairs({ "summary", "deprecated" }) do
    if definition[text] ~= nil and type(definition[text]) ~= "string" then
      return string.format("tf.func: %s must be a string, got %s", text, type(definition[text]))
    end
  end
  return description_problem(what, definition.description)
end

-- A provider-defined function, called in configurations as provider::NAME::FILE(...) for a
-- script function_FILE.lua. `run` gets the arguments in order (the variadic ones last) and
-- returns the result; it never sees the provider's configuration.
function M.func(definition)
  local problem = function_problem(definition)
  if problem then
    error(problem, CALLER)
  end
  local tagged = spec_of({ kind = "function" }, definition)
  return tagged
end

return M
