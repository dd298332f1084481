-- luaform: the authoring SDK that provider scripts `require("luaform")`.
--
-- It only builds plain, validated tables tagged with `kind`; the host reads those tables to
-- build the Terraform schema and calls the functions they hold. Every mistake is reported with
-- error(..., level) at the line of the script that made it, so `--check` and the CLI show
-- "resource_x.lua:12: ..." rather than a line in this file.

local M = {}

-- Level for error(): the script line that called the public function raising the error.
local CALLER = 2

local PRIMITIVES = { string = "string", number = "number", bool = "boolean" }

local ATTRIBUTE_FLAGS = { "required", "optional", "computed", "force_new", "sensitive" }
local ATTRIBUTE_TEXTS = { "description", "deprecated" }

-- Names Terraform accepts for attributes (helper/schema's rule).
local NAME_PATTERN = "^[a-z_][a-z0-9_]*$"

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do
    keys[#keys + 1] = tostring(k)
  end
  table.sort(keys)
  return keys
end

-- An error message for the first key of `t` that `allowed` does not list, or nil.
local function unknown_key(what, t, allowed)
  for _, key in ipairs(sorted_keys(t)) do
    if allowed[key] == nil then
      return string.format("%s: unknown option %q (valid options: %s)", what, key,
        table.concat(sorted_keys(allowed), ", "))
    end
  end
  return nil
end

local function is_type(v)
  return type(v) == "table" and v.kind == "type"
end

-- The Terraform spelling of a type descriptor, used in messages: "list of string".
local function type_name(t)
  if t.element then
    return t.name .. " of " .. type_name(t.element)
  end
  return t.name
end

-- Checks `default` against the attribute's type; collections are checked element by element.
local function default_problem(t, value)
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

-- The message for the first problem of an attribute's options, or nil when they are valid.
local function attribute_problem(t, options)
  local what = "tf." .. type_name(t)
  if type(options) ~= "table" then
    return string.format("%s expects an options table, as in %s { optional = true }", what, what)
  end
  local allowed = { default = true }
  for _, flag in ipairs(ATTRIBUTE_FLAGS) do
    allowed[flag] = true
  end
  for _, text in ipairs(ATTRIBUTE_TEXTS) do
    allowed[text] = true
  end
  local problem = unknown_key(what, options, allowed)
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
  if not (options.required or options.optional or options.computed) then
    return what .. ": set one of required, optional or computed"
  end
  if options.required and options.optional then
    return what .. ": required and optional cannot both be set"
  end
  if options.required and options.computed then
    return what .. ": required and computed cannot both be set"
  end
  if options.default ~= nil then
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

-- Type descriptors are tables tagged kind = "type"; calling one with an options table gives
-- an attribute spec: { kind = "attribute", type = <descriptor>, required = ..., ... }.
local type_metatable = {}

function type_metatable.__call(t, options)
  local problem = attribute_problem(t, options)
  if problem then
    error(problem, CALLER)
  end
  local spec = { kind = "attribute", type = t }
  for k, v in pairs(options) do
    spec[k] = v
  end
  return spec
end

local function new_type(name, element)
  return setmetatable({ kind = "type", name = name, element = element }, type_metatable)
end

M.string = new_type("string")
M.number = new_type("number")
M.bool = new_type("bool")

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

-- The value a resource's `import` field takes: `terraform import` sets only the id, then the
-- resource's read fills in the rest.
M.import_by_id = { kind = "importer", by = "id" }

-- Checks a `schema = { name = tf.x { ... } }` table.
local function schema_problem(what, schema)
  if type(schema) ~= "table" then
    return string.format("%s: schema must be a table of attributes, got %s", what, type(schema))
  end
  for _, name in ipairs(sorted_keys(schema)) do
    local spec = schema[name]
    if not name:match(NAME_PATTERN) then
      return string.format("%s: attribute name %q must be lowercase letters, digits and _",
        what, name)
    end
    if name == "id" then
      return what .. ': attribute "id" is reserved (every object has a computed id; use d:set_id)'
    end
    if type(spec) ~= "table" or spec.kind ~= "attribute" then
      local hint = is_type(spec) and " (call it with options: tf.string { optional = true })"
        or ""
      return string.format(
        "%s: attribute %q must be declared with tf.string { ... } and the like%s", what, name, hint)
    end
  end
  return nil
end

-- Validates a definition table and returns a tagged copy. `functions` maps each function
-- field to true when it is required.
local function define(kind, definition, functions, extra)
  local what = "tf." .. kind
  if type(definition) ~= "table" then
    error(string.format("%s expects a table, as in %s { schema = { ... } }", what, what),
      CALLER + 1)
  end
  local allowed = { description = true, schema = true }
  for name in pairs(functions) do
    allowed[name] = true
  end
  for name in pairs(extra) do
    allowed[name] = true
  end
  local problem = unknown_key(what, definition, allowed)
    or schema_problem(what, definition.schema == nil and {} or definition.schema)
  if problem then
    error(problem, CALLER + 1)
  end
  if definition.description ~= nil and type(definition.description) ~= "string" then
    error(what .. ": description must be a string", CALLER + 1)
  end
  for _, name in ipairs(sorted_keys(functions)) do
    local fn = definition[name]
    if fn == nil and functions[name] then
      error(string.format("%s: a %s function is required", what, name), CALLER + 1)
    end
    if fn ~= nil and type(fn) ~= "function" then
      error(string.format("%s: %s must be a function, got %s", what, name, type(fn)), CALLER + 1)
    end
  end
  local tagged = { kind = kind, schema = {} }
  for k, v in pairs(definition) do
    tagged[k] = v
  end
  return tagged
end

-- The public constructors keep their own frame (no tail call into define) so that define's
-- error level CALLER + 1 is the script line.
function M.provider(definition)
  local tagged = define("provider", definition, { configure = false }, {})
  return tagged
end

function M.resource(definition)
  if type(definition) == "table" and definition.import ~= nil
      and definition.import ~= M.import_by_id then
    error("tf.resource: import must be tf.import_by_id", CALLER)
  end
  local tagged = define("resource", definition,
    { create = true, read = true, update = false, delete = true }, { import = true })
  return tagged
end

function M.data_source(definition)
  local tagged = define("data_source", definition, { read = true }, {})
  return tagged
end

return M
