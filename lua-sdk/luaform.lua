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

local ATTRIBUTE_FLAGS = { "required", "optional", "computed", "force_new", "sensitive",
  "write_only", "use_state_for_unknown", "changes_on_update" }
local ATTRIBUTE_TEXTS = { "deprecated", "removed" }
-- Options naming other attributes by their address from the top ("name", "disk.0.size").
local ATTRIBUTE_ADDRESS_LISTS = { "conflicts_with", "required_with", "exactly_one_of",
  "at_least_one_of" }

-- Names Terraform accepts for attributes (helper/schema's rule).
local NAME_PATTERN = "^[a-z_][a-z0-9_]*$"

-- `description = tf.markdown [[...]]`: documentation written in markdown, which the CLI and
-- documentation tools render as such (a plain string is plain text).
function M.markdown(text)
  if type(text) ~= "string" then
    error("tf.markdown expects the text, as in tf.markdown \"Use `name` ...\"", 2)
  end
  return { kind = "markdown", text = text }
end

local function description_problem(what, description)
  if description == nil or type(description) == "string"
      or (type(description) == "table" and description.kind == "markdown") then
    return nil
  end
  return string.format("%s: description must be a string or tf.markdown \"...\", got %s", what,
    type(description))
end

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

-- A copy of a checked options table with its `kind` (and any other fixed fields) set.
local function spec_of(fixed, options)
  local spec = {}
  for k, v in pairs(options) do
    spec[k] = v
  end
  for k, v in pairs(fixed) do
    spec[k] = v
  end
  return spec
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
local function attribute_problem(t, options)
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
  local allowed = { default = true, validate = true, diff_suppress = true, state_func = true,
    description = true, requires_replace_if = true, refine = true, plan = true }
  for _, list in ipairs(ATTRIBUTE_ADDRESS_LISTS) do
    allowed[list] = true
  end
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
  problem = description_problem(what, options.description)
    or validate_option_problem(what, options.validate)
  if problem then
    return problem
  end
  for _, option in ipairs({ "diff_suppress", "state_func", "requires_replace_if", "plan" }) do
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

-- Type descriptors are tables tagged kind = "type"; calling one with an options table gives
-- an attribute spec: { kind = "attribute", type = <descriptor>, required = ..., ... }.
local type_metatable = {}

function type_metatable.__call(t, options)
  local problem = attribute_problem(t, options)
  if problem then
    error(problem, CALLER)
  end
  return spec_of({ kind = "attribute", type = t }, options)
end

local function new_type(name, element)
  return setmetatable({ kind = "type", name = name, element = element }, type_metatable)
end

M.string = new_type("string")
M.number = new_type("number")
M.bool = new_type("bool")
-- Any value, with its own type: for function parameters and results only.
M.dynamic = new_type("dynamic")
-- A value not known until apply: what a function declared with allow_unknown receives for
-- such arguments (at any depth), and may return (native).
M.unknown = require("luaform_values").unknown

local function collection(name)
  return function(element)
    if not is_type(element) then
      error(string.format("tf.%s expects an element type such as tf.string, got %s", name,
        type(element)), CALLER)
    end
    return new_type(name, element)
  end
end

-- Validators for an attribute's `validate` option: tf.v.between(1, 10), tf.v.one_of { ... }.
M.v = require("luaform_validators")
-- Suppressors for an attribute's `diff_suppress` option: tf.suppress.case_insensitive, ...
M.suppress = require("luaform_suppressors")
-- JSON: tf.json.decode, encode, array, null, equivalent (native, in the host).
M.json = require("luaform_json")
-- HTTP: tf.http.client { base_url = ... } (native, on libcurl) and tf.http.paginate.
M.http = require("luaform_http")
M.http.paginate = require("luaform_pagination")
do
  local paths = require("luaform_paths")
  M.http.escape, M.http.unescape, M.http.path = paths.escape, paths.unescape, paths.path
end
-- Diagnostics (native): tf.fail { summary =, detail =, path = } ends the operation with an error
-- shown at that attribute; tf.warn { ... } adds a warning.
local diagnostics = require("luaform_diagnostics")
M.fail = diagnostics.fail
M.warn = diagnostics.warn
-- Encodings and digests (native): tf.base64.encode/decode, tf.hash.sha256 (sha1, sha512, md5),
-- tf.uuid().
local encoding = require("luaform_encoding")
M.base64 = { encode = encoding.base64_encode, decode = encoding.base64_decode }
M.hash = { sha1 = encoding.sha1, sha256 = encoding.sha256, sha512 = encoding.sha512,
  md5 = encoding.md5 }
M.uuid = encoding.uuid
-- Logging to the CLI's log (TF_LOG): tf.log.info("message", { field = value }) (native).
M.log = require("luaform_log")
-- Time: tf.time.sleep, now, seconds, format (native); waiting on asynchronous APIs.
M.time = require("luaform_time")
-- Modes, directories and stat for providers of local files (see fs_module.h).
M.fs = require("luaform_fs")
local wait = require("luaform_wait")
M.wait_for = wait.wait_for
M.retry = wait.retry
M.retryable = wait.retryable

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
-- for the error when one is not.
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
  return function()
    for _, name in ipairs(names) do
      local value = os.getenv(name)
      if value ~= nil and value ~= "" then
        return value, name
      end
    end
    return fallback
  end
end

-- The value a resource's `import` field takes when the import id is the object's id:
-- `terraform import` sets only the id, then the resource's read fills in the rest. For ids that
-- need work (a composite "region/name"), `import` is a function(d, client) instead.
M.import_by_id = { kind = "importer", by = "id" }

-- Checks a `schema = { name = tf.x { ... } }` table. `id` is reserved at the top level of
-- resources and data sources only; a nested block may have an attribute called id.
local function schema_problem(what, schema, reserve_id)
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
  optional = "boolean", force_new = "boolean", min_items = "number", max_items = "number",
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
  return schema_problem(what, options.schema, false)
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
    return spec_of({ kind = kind, nesting = nesting }, options)
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
  return schema_problem(what, options.schema, false)
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
    or schema_problem(what, definition.schema == nil and {} or definition.schema,
      kind == "resource" or kind == "data_source")
  if problem then
    error(problem, CALLER + 1)
  end
  problem = description_problem(what, definition.description)
  if problem then
    error(problem, CALLER + 1)
  end
  if definition.deprecated ~= nil and type(definition.deprecated) ~= "string" then
    error(string.format("%s: deprecated must be a message saying what to use instead, got %s",
      what, type(definition.deprecated)), CALLER + 1)
  end
  for _, name in ipairs(sorted_keys(functions)) do
    local fn = definition[name]
    if fn == nil and functions[name] then
      error(string.format("%s: %s %s function is required", what,
        name:match("^[aeiou]") and "an" or "a", name), CALLER + 1)
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

local OPERATIONS = { create = true, read = true, update = true, delete = true, default = true }

-- `timeouts = { create = "10m", default = "20m" }`: how long each operation may take unless the
-- user's `timeouts` block says otherwise.
local function timeouts_problem(what, timeouts)
  if timeouts == nil then
    return nil
  end
  if type(timeouts) ~= "table" then
    return what .. ': timeouts must be a table such as { create = "10m" }'
  end
  local problem = unknown_key(what .. " timeouts", timeouts, OPERATIONS)
  if problem then
    return problem
  end
  for _, op in ipairs(sorted_keys(timeouts)) do
    if type(timeouts[op]) ~= "string" then
      return string.format('%s: timeouts.%s must be a duration such as "10m", got %s', what, op,
        type(timeouts[op]))
    end
  end
  return nil
end

-- `schema_version = N` with `upgrade = { [0] = fn, ..., [N-1] = fn }`: upgrade[v] takes a
-- stored state of version v as a plain table and returns it as version v + 1. Identities are
-- versioned alike: identity = { version = N, upgrade = { ... } }. `names` spells the two
-- options in messages.
local function versioning_problem(version, upgrade, names)
  if version ~= nil and (math.type(version) ~= "integer" or version < 0) then
    return string.format("tf.resource: %s must be a whole number of at least 0", names.version)
  end
  if upgrade == nil then
    return nil
  end
  if type(upgrade) ~= "table" then
    return string.format("tf.resource: %s must be a table of functions, as in "
      .. "{ [0] = function(raw) end }", names.upgrade)
  end
  for k, fn in pairs(upgrade) do
    if math.type(k) ~= "integer" or k < 0 or k >= (version or 0) then
      return string.format("tf.resource: %s[%s] is not a version below %s (%d)", names.upgrade,
        tostring(k), names.version, version or 0)
    end
    if type(fn) ~= "function" then
      return string.format("tf.resource: %s[%d] must be a function, got %s", names.upgrade, k,
        type(fn))
    end
  end
  -- Upgrades chain from the oldest supported version up to the current one, without gaps.
  local oldest = nil
  for k in pairs(upgrade) do
    oldest = (oldest == nil or k < oldest) and k or oldest
  end
  for v = oldest or version or 0, (version or 0) - 1 do
    if upgrade[v] == nil then
      return string.format("tf.resource: %s[%d] is missing (upgrades must run from "
        .. "%s[%d] to %s[%d] without gaps)", names.upgrade, v, names.upgrade, oldest,
        names.upgrade, version - 1)
    end
  end
  return nil
end

local STATE_VERSIONING = { version = "schema_version", upgrade = "upgrade" }
local IDENTITY_VERSIONING = { version = "identity.version", upgrade = "identity.upgrade" }
local IDENTITY_OPTIONS = { schema = true, version = true, upgrade = true, mutable = true }

-- `identity = { schema = { name = tf.string { required_for_import = true } }, version = N,
-- upgrade = { ... }, mutable = false }`: which object a resource is (see the authoring guide).
local function identity_problem(identity)
  if identity == nil then
    return nil
  end
  local what = "tf.resource: identity"
  if type(identity) ~= "table" then
    return what .. " must be a table, as in identity = { schema = { name = tf.string { "
      .. "required_for_import = true } } }"
  end
  local problem = unknown_key(what, identity, IDENTITY_OPTIONS)
  if problem then
    return problem
  end
  if type(identity.schema) ~= "table" or next(identity.schema) == nil then
    return what .. ": schema must be a table of at least one attribute"
  end
  for _, name in ipairs(sorted_keys(identity.schema)) do
    local spec = identity.schema[name]
    if not name:match(NAME_PATTERN) then
      return string.format("%s: attribute name %q must be lowercase letters, digits and _",
        what, name)
    end
    if type(spec) ~= "table" or spec.kind ~= "attribute"
        or not (spec.required_for_import or spec.optional_for_import) then
      return string.format("%s: attribute %q must be declared as tf.string { "
        .. "required_for_import = true } (or optional_for_import = true) and the like", what,
        name)
    end
  end
  if identity.mutable ~= nil and type(identity.mutable) ~= "boolean" then
    return what .. ": mutable must be true or false, got " .. type(identity.mutable)
  end
  return versioning_problem(identity.version, identity.upgrade, IDENTITY_VERSIONING)
end

function M.resource(definition)
  if type(definition) == "table" and definition.import ~= nil
      and definition.import ~= M.import_by_id and type(definition.import) ~= "function" then
    error("tf.resource: import must be tf.import_by_id or a function(d, client)", CALLER)
  end
  local problem = type(definition) == "table"
    and (versioning_problem(definition.schema_version, definition.upgrade, STATE_VERSIONING)
      or identity_problem(definition.identity)
      or timeouts_problem("tf.resource", definition.timeouts))
  if problem then
    error(problem, CALLER)
  end
  local tagged = define("resource", definition,
    { create = true, read = true, update = false, delete = true, exists = false,
      customize_diff = false, move_state = false, plan_destroy = false },
    { import = true, schema_version = true, upgrade = true, timeouts = true, identity = true,
      deprecated = true })
  return tagged
end

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

-- tf.list_resource { schema = { filters }, list = function(request, emit, client) ... end }:
-- how `terraform query` finds the objects of the resource type of the same name
-- (list_server.lua lists resource NAME_server, which must have an identity).
function M.list_resource(definition)
  local tagged = define("list_resource", definition, { list = true }, {})
  return tagged
end

-- tf.action { schema = { ... }, invoke = function(config, progress, client) ... end,
-- plan = function(config, client) ... end }: an operation `action "NAME_X"` blocks run.
function M.action(definition)
  local tagged = define("action", definition, { invoke = true, plan = false }, {})
  return tagged
end

function M.data_source(definition)
  local problem = type(definition) == "table"
    and timeouts_problem("tf.data_source", definition.timeouts)
  if problem then
    error(problem, CALLER)
  end
  local tagged = define("data_source", definition, { read = true },
    { timeouts = true, deprecated = true })
  return tagged
end

-- An ephemeral resource: open(d, client) sets the values, which the CLI uses for one run and
-- never saves; renew(d, client) and close(d, client) see only what open kept with
-- d:set_private.
function M.ephemeral(definition)
  local tagged = define("ephemeral", definition, { open = true, renew = false, close = false },
    {})
  return tagged
end

return M
