-- luaform_blocks: the check of a `schema = { ... }` table, and the structured parts of one:
-- nested blocks (tf.list_block, ...) and nested attributes (tf.list_nested, ...).
-- Internal to the SDK: scripts get these through require("luaform"); this module's other names
-- may change without notice.

local check = require("luaform_check")
local attribute_check = require("luaform_attribute_check")

local CALLER = check.CALLER
-- Where the script declared a block or an attribute: the schema's rules report there.
local declared_at = require("luaform_diagnostics").declared_at
local NAME_PATTERN = check.NAME_PATTERN
local sorted_keys, unknown_key, spec_of = check.sorted_keys, check.unknown_key, check.spec_of
local description_problem = check.description_problem
local is_type = attribute_check.is_type

local M = {}

-- Checks a `schema = { name = tf.x { ... } }` table. `id` is reserved at the top level of
-- resources and data sources only; a nested block may have an attribute called id.
function M.schema_problem(what, schema, reserve_id)
  if type(schema) ~= "table" then
    return string.format("%s: schema must be a table of attributes, got %s", what, type(schema))
  end
  for _, name in ipairs(sorted_keys(schema)) do
    local spec = schema[name]
    if not name:match(NAME_PATTERN) then
      return string.format("%s: attribute name %q must be lowercase letters, digits and _",
        what, name)
    end
    if reserve_id and name == "id" then
      return what .. ': attribute "id" is reserved (every object has a computed id; use d:set_id)'
    end
    if type(spec) ~= "table" or (spec.kind ~= "attribute" and spec.kind ~= "block"
        and spec.kind ~= "nested_attribute") then
      local hint = is_type(spec) and " (call it with options: tf.string { optional = true })"
        or ""
      return string.format(
        "%s: attribute %q must be declared with tf.string { ... } and the like%s", what, name, hint)
    end
    if spec.required_for_import ~= nil or spec.optional_for_import ~= nil then
      return string.format("%s: attribute %q: required_for_import and optional_for_import are "
        .. "for the attributes of an identity (identity = { schema = { ... } })", what, name)
    end
  end
  return nil
end

local BLOCK_OPTIONS = {
  schema = "table", deprecated = "string", required = "boolean",
  optional = "boolean", computed = "boolean", force_new = "boolean", min_items = "number",
  max_items = "number", element_state_func = "function",
}

-- The message for the first problem of a table of options whose fields have the Lua types
-- `typed` names (plus a description and a required schema), or nil.
local function structured_options_problem(what, options, typed, example)
  if type(options) ~= "table" then
    return string.format("%s expects an options table, as in %s %s", what, what, example)
  end
  local problem = unknown_key(what, options, spec_of({ description = true }, typed))
    or description_problem(what, options.description)
  if problem then
    return problem
  end
  for _, key in ipairs(sorted_keys(typed)) do
    if options[key] ~= nil and type(options[key]) ~= typed[key] then
      return string.format("%s: %s must be a %s, got %s", what, key, typed[key],
        type(options[key]))
    end
  end
  if options.schema == nil then
    return what .. ": schema is required, as in " .. what .. " { schema = { ... } }"
  end
  return nil
end

-- The message for the first problem of a block's options, or nil when they are valid.
local function block_problem(what, nesting, options)
  local problem = structured_options_problem(what, options, BLOCK_OPTIONS,
    "{ schema = { ... } }")
  if problem then
    return problem
  end
  if options.required and options.optional then
    return what .. ": required and optional cannot both be set"
  end
  if options.computed and options.required then
    return what .. ": a computed block is filled in when the configuration has none, so it "
      .. "cannot be required"
  end
  for _, key in ipairs({ "min_items", "max_items" }) do
    local n = options[key]
    if n ~= nil and (math.type(n) ~= "integer" or n < 0) then
      return string.format("%s: %s must be a whole number of at least 0", what, key)
    end
    if n ~= nil and nesting == "single" then
      return string.format("%s: %s does not apply to a single block (use required)", what, key)
    end
  end
  if options.max_items and options.max_items > 0 and options.min_items
      and options.min_items > options.max_items then
    return what .. ": min_items is larger than max_items"
  end
  return M.schema_problem(what, options.schema, false)
end

-- Nested blocks: configuration written as `disk { size = 10 }` blocks, as many as the nesting
-- allows. Inside the schema go attributes and further blocks.
-- A constructor checking its options with problem_of(what, nesting, options) and returning
-- them tagged with `kind` and `nesting`.
local function structured(kind, nesting, what, problem_of)
  return function(options)
    local problem = problem_of(what, nesting, options)
    if problem then
      error(problem, CALLER)
    end
    return spec_of({ kind = kind, nesting = nesting, declared_at = declared_at(CALLER) }, options)
  end
end

local function block(nesting)
  return structured("block", nesting, "tf." .. nesting .. "_block", block_problem)
end

M.list_block = block("list")
M.set_block = block("set")
M.single_block = block("single")

local NESTED_ATTRIBUTE_OPTIONS = {
  schema = "table", deprecated = "string", required = "boolean", optional = "boolean",
  computed = "boolean", sensitive = "boolean", force_new = "boolean",
  element_state_func = "function",
}

-- The message for the first problem of a nested attribute's options, or nil.
local function nested_attribute_problem(what, options)
  local problem = structured_options_problem(what, options, NESTED_ATTRIBUTE_OPTIONS,
    "{ optional = true, schema = { ... } }")
  if problem then
    return problem
  end
  if not (options.required or options.optional or options.computed) then
    return what .. ": set one of required, optional or computed"
  end
  if options.required and (options.optional or options.computed) then
    return what .. ": required cannot be combined with optional or computed"
  end
  for _, name in ipairs(sorted_keys(options.schema)) do
    local spec = options.schema[name]
    if type(spec) == "table" and spec.kind == "block" then
      return string.format("%s: %q is a block; a nested attribute holds attributes only", what,
        name)
    end
  end
  return M.schema_problem(what, options.schema, false)
end

-- Nested attributes (protocol 6): structured values written as attributes,
-- `rules = [{ port = 80 }]`, whose inner attributes have their own required, optional,
-- computed and default. Unlike blocks they may be null, computed, or passed whole from a
-- variable.
local function nested_attribute(nesting)
  return structured("nested_attribute", nesting, "tf." .. nesting .. "_nested",
    function(what, _, options) return nested_attribute_problem(what, options) end)
end

M.single_nested = nested_attribute("single")
M.list_nested = nested_attribute("list")
M.set_nested = nested_attribute("set")
M.map_nested = nested_attribute("map")

return M
