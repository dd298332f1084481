-- luaform_attribute_check: the check of the options an attribute is declared with
-- (tf.string { required = true, ... }), giving the message of the first problem.
-- Internal to the SDK: luaform_attributes raises its messages at the script's line; this
-- module's names may change without notice.

local check = require("luaform_check")

local sorted_keys, unknown_key = check.sorted_keys, check.unknown_key
local description_problem = check.description_problem

local M = {}

local PRIMITIVES = { string = "string", number = "number", bool = "boolean" }

local ATTRIBUTE_FLAGS = { "required", "optional", "computed", "force_new", "sensitive",
  "write_only", "use_state_for_unknown", "changes_on_update" }
local ATTRIBUTE_TEXTS = { "deprecated", "removed" }
-- Options naming other attributes by their address from the top ("name", "disk.0.size").
local ATTRIBUTE_ADDRESS_LISTS = { "conflicts_with", "required_with", "exactly_one_of",
  "at_least_one_of" }
-- Every option an attribute may have, made once: it is checked against each attribute.
local ATTRIBUTE_OPTIONS = { default = true, validate = true, diff_suppress = true,
  state_func = true, element_state_func = true, description = true, requires_replace_if = true,
  refine = true, plan = true }
for _, names in ipairs({ ATTRIBUTE_FLAGS, ATTRIBUTE_TEXTS, ATTRIBUTE_ADDRESS_LISTS }) do
  for _, name in ipairs(names) do
    ATTRIBUTE_OPTIONS[name] = true
  end
end

-- True for a type descriptor (tf.string, tf.list(tf.number), ...).
function M.is_type(v)
  return type(v) == "table" and v.kind == "type"
end

-- The Terraform spelling of a type descriptor, used in messages: "list of string".
local function type_name(t)
  if t.element then
    return t.name .. " of " .. type_name(t.element)
  end
  return t.name
end

local default_problem

-- Checks `default` against the attribute's type; collections are checked element by element.
function default_problem(t, value)
  local lua_type = PRIMITIVES[t.name]
  if lua_type then
    if type(value) ~= lua_type then
      return string.format("default must be a %s, got %s", t.name, type(value))
    end
    return nil
  end
  if type(value) ~= "table" then
    return string.format("default must be a table (%s), got %s", type_name(t), type(value))
  end
  if t.name == "object" then
    for k, v in pairs(value) do
      local attribute = t.attributes[k]
      if attribute == nil then
        return string.format("default: the object type has no attribute %q", tostring(k))
      end
      local problem = default_problem(attribute, v)
      if problem then
        return problem
      end
    end
    return nil
  end
  for k, v in pairs(value) do
    if t.name == "map" and type(k) ~= "string" then
      return "default: map keys must be strings"
    end
    local problem = default_problem(t.element, v)
    if problem then
      return problem
    end
  end
  return nil
end

-- `validate` is a function(value, path) -> message or nil, or an array of such functions.
local function validate_option_problem(what, validate)
  if validate == nil or type(validate) == "function" then
    return nil
  end
  if type(validate) == "table" and #validate > 0 then
    for i, fn in ipairs(validate) do
      if type(fn) ~= "function" then
        return string.format("%s: validate[%d] must be a function, got %s", what, i, type(fn))
      end
    end
    return nil
  end
  return string.format("%s: validate must be a function or a list of functions (see tf.v), got %s",
    what, type(validate))
end

local function address_list_problem(what, option, list)
  if list == nil then
    return nil
  end
  if type(list) ~= "table" or #list == 0 then
    return string.format('%s: %s must be a list of attribute names, as in { "other" }', what,
      option)
  end
  for i, address in ipairs(list) do
    if type(address) ~= "string" or not address:match("^[a-z_][a-z0-9_.]*$") then
      return string.format("%s: %s[%d] must be an attribute name or address such as "
        .. '"disk.0.size", got %s', what, option, i, tostring(address))
    end
  end
  return nil
end

local REFINE_OPTIONS = { not_null = "boolean", prefix = "string", min = "number", max = "number",
  min_length = "number", max_length = "number" }

-- `refine = { not_null = true, prefix = "arn:", ... }`: the problem with it, or nil.
local function refine_problem(what, options)
  local refine = options.refine
  if refine == nil then
    return nil
  end
  if type(refine) ~= "table" then
    return string.format("%s: refine must be a table such as { not_null = true }", what)
  end
  if not options.computed then
    return what .. ": refine is for computed attributes"
  end
  local problem = unknown_key(what .. " refine", refine, REFINE_OPTIONS)
  if problem then
    return problem
  end
  for _, key in ipairs(sorted_keys(refine)) do
    if type(refine[key]) ~= REFINE_OPTIONS[key] then
      return string.format("%s: refine.%s must be a %s, got %s", what, key, REFINE_OPTIONS[key],
        type(refine[key]))
    end
  end
  return nil
end

local IDENTITY_ATTRIBUTE_OPTIONS = { required_for_import = true, optional_for_import = true,
  description = true }

-- An identity attribute (identity = { schema = { name = tf.string { required_for_import = true
-- } } }): a primitive or a list of one, with exactly one of the two import flags.
local function identity_attribute_problem(t, options)
  local what = "tf." .. type_name(t)
  local problem = unknown_key(what .. " (an identity attribute)", options,
    IDENTITY_ATTRIBUTE_OPTIONS)
  if problem then
    return problem
  end
  if options.required_for_import and options.optional_for_import then
    return what .. ": required_for_import and optional_for_import cannot both be set"
  end
  if not (PRIMITIVES[t.name] or (t.name == "list" and PRIMITIVES[t.element.name])) then
    return what .. ": identity attributes are strings, numbers, bools or lists of one of them"
  end
  return description_problem(what, options.description)
end

-- The message for the first problem of an attribute's options, or nil when they are valid.
function M.attribute_problem(t, options)
  local what = "tf." .. type_name(t)
  if t.name == "dynamic" then
    return "tf.dynamic is only for the parameters and results of functions (tf.func)"
  end
  if type(options) ~= "table" then
    return string.format("%s expects an options table, as in %s { optional = true }", what, what)
  end
  if options.required_for_import ~= nil or options.optional_for_import ~= nil then
    return identity_attribute_problem(t, options)
  end
  local problem = unknown_key(what, options, ATTRIBUTE_OPTIONS)
  if problem then
    return problem
  end
  for _, flag in ipairs(ATTRIBUTE_FLAGS) do
    if options[flag] ~= nil and type(options[flag]) ~= "boolean" then
      return string.format("%s: %s must be true or false, got %s", what, flag, type(options[flag]))
    end
  end
  for _, text in ipairs(ATTRIBUTE_TEXTS) do
    if options[text] ~= nil and type(options[text]) ~= "string" then
      return string.format("%s: %s must be a string, got %s", what, text, type(options[text]))
    end
  end
  problem = description_problem(what, options.description)
    or validate_option_problem(what, options.validate)
  if problem then
    return problem
  end
  for _, option in ipairs({ "diff_suppress", "state_func", "element_state_func",
    "requires_replace_if", "plan" }) do
    if options[option] ~= nil and type(options[option]) ~= "function" then
      return string.format("%s: %s must be a function, got %s", what, option,
        type(options[option]))
    end
  end
  for _, list in ipairs(ATTRIBUTE_ADDRESS_LISTS) do
    problem = address_list_problem(what, list, options[list])
    if problem then
      return problem
    end
  end
  if not (options.required or options.optional or options.computed) then
    return what .. ": set one of required, optional or computed"
  end
  if options.required and options.optional then
    return what .. ": required and optional cannot both be set"
  end
  if options.required and options.computed then
    return what .. ": required and computed cannot both be set"
  end
  problem = refine_problem(what, options)
  if problem then
    return problem
  end
  if options.plan ~= nil and not options.computed then
    return what .. ": a plan function is for computed attributes"
  end
  if options.use_state_for_unknown and not options.computed then
    return what .. ": use_state_for_unknown is for computed attributes"
  end
  if options.changes_on_update and not options.computed then
    return what .. ": changes_on_update is for computed attributes"
  end
  if options.write_only and (options.computed or options.default ~= nil or options.force_new) then
    return what .. ": a write_only attribute cannot be computed, have a default or force_new"
  end
  if type(options.default) == "function" then
    -- Called once when the provider starts; a required attribute whose default function
    -- gives a value becomes optional (helper/schema's DefaultFunc rule).
    if not (options.optional or options.required) then
      return what .. ": a default needs optional = true (or required = true for a function)"
    end
  elseif options.default ~= nil then
    if options.required then
      return what .. ": a required attribute cannot have a default"
    end
    if not options.optional then
      return what .. ": a default needs optional = true"
    end
    problem = default_problem(t, options.default)
    if problem then
      return what .. ": " .. problem
    end
  end
  return nil
end

return M
