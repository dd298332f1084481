-- luaform_definitions: the tables a script returns, tf.provider, tf.resource,
-- tf.data_source, tf.ephemeral, tf.list_resource, tf.action and tf.state_store, with the
-- checks of their own options (timeouts, state and identity versions). Internal to the SDK:
-- scripts get these through require("luaform"); this module's other names may change without
-- notice.

local check = require("luaform_check")
local blocks = require("luaform_blocks")

local CALLER = check.CALLER
local NAME_PATTERN = check.NAME_PATTERN
local sorted_keys, unknown_key = check.sorted_keys, check.unknown_key
local description_problem = check.description_problem
local schema_problem = blocks.schema_problem

local M = {}


-- The value a resource's `import` field takes when the import id is the object's id:
-- `terraform import` sets only the id, then the resource's read fills in the rest. For ids that
-- need work (a composite "region/name"), `import` is a function(d, client) instead.
M.import_by_id = { kind = "importer", by = "id" }

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

-- A duration option (`timeout = "10m"`): a string, which the host reads as Go's durations.
local function duration_problem(what, value)
  if value ~= nil and type(value) ~= "string" then
    return string.format('%s must be a duration such as "10m", got %s', what, type(value))
  end
  return nil
end

local HOOK_KINDS = { check = true, plan = true, hook = true }

-- `hook_timeouts = { check = "10s", plan = "1m", hook = "5m" }`: the time limits of the calls
-- that have no timeouts of their own (see "Time limits" in the authoring guide).
local function hook_timeouts_problem(limits)
  if limits == nil then
    return nil
  end
  local what = "tf.provider: hook_timeouts"
  if type(limits) ~= "table" then
    return what .. ' must be a table such as { check = "30s" }'
  end
  local problem = unknown_key(what, limits, HOOK_KINDS)
  if problem then
    return problem
  end
  for _, kind in ipairs(sorted_keys(limits)) do
    problem = duration_problem(what .. "." .. kind, limits[kind])
    if problem then
      return problem
    end
  end
  return nil
end

local DECLARED_KINDS = {
  resources = "resource", data_sources = "data_source", list_resources = "list_resource",
}

-- `types = { resources = { zone = tf.resource { ... } }, data_sources = ..., list_resources =
-- ... }`: types the provider declares in provider.lua rather than one file each (a provider
-- mapped from an OpenAPI description declares them all so). Each is served as PROVIDER_name;
-- a script file of the same type replaces it.
local function types_problem(types)
  if types == nil then
    return nil
  end
  local what = "tf.provider: types"
  if type(types) ~= "table" then
    return what .. " must be a table such as { resources = { zone = tf.resource { ... } } }"
  end
  local problem = unknown_key(what, types, DECLARED_KINDS)
  if problem then
    return problem
  end
  for _, field in ipairs(sorted_keys(types)) do
    local declared = types[field]
    if type(declared) ~= "table" then
      return string.format("%s.%s must be a table of %s definitions by name", what, field,
        DECLARED_KINDS[field])
    end
    for _, name in ipairs(sorted_keys(declared)) do
      if type(name) ~= "string" or not name:match(NAME_PATTERN) then
        return string.format("%s.%s: %s is not a name (lowercase letters, digits and _)", what,
          field, tostring(name))
      end
      local definition = declared[name]
      if type(definition) ~= "table" or definition.kind ~= DECLARED_KINDS[field] then
        return string.format("%s.%s.%s must be a tf.%s { ... }", what, field, name,
          DECLARED_KINDS[field])
      end
    end
  end
  return nil
end

-- The public constructors keep their own frame (no tail call into define) so that define's
-- error level CALLER + 1 is the script line.
-- `notes = { "...", ... }`: lines `--check` prints about the provider.
local function notes_problem(notes)
  if notes == nil then
    return nil
  end
  if type(notes) ~= "table" then
    return "tf.provider: notes must be a list of strings"
  end
  for i, note in ipairs(notes) do
    if type(note) ~= "string" then
      return string.format("tf.provider: notes[%d] must be a string, got %s", i, type(note))
    end
  end
  return nil
end

function M.provider(definition)
  local problem = type(definition) == "table"
    and (hook_timeouts_problem(definition.hook_timeouts) or types_problem(definition.types)
      or notes_problem(definition.notes))
  if problem then
    error(problem, CALLER)
  end
  local tagged = define("provider", definition, { configure = false },
    { hook_timeouts = true, types = true, notes = true })
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

-- tf.list_resource { schema = { filters }, list = function(request, emit, client) ... end }:
-- how `terraform query` finds the objects of the resource type of the same name
-- (list_server.lua lists resource NAME_server, which must have an identity).
function M.list_resource(definition)
  local problem = type(definition) == "table"
    and duration_problem("tf.list_resource: timeout", definition.timeout)
  if problem then
    error(problem, CALLER)
  end
  local tagged = define("list_resource", definition, { list = true }, { timeout = true })
  return tagged
end

-- tf.action { schema = { ... }, invoke = function(config, progress, client) ... end,
-- plan = function(config, client) ... end }: an operation `action "NAME_X"` blocks run.
function M.action(definition)
  local problem = type(definition) == "table"
    and duration_problem("tf.action: timeout", definition.timeout)
  if problem then
    error(problem, CALLER)
  end
  local tagged = define("action", definition, { invoke = true, plan = false }, { timeout = true })
  return tagged
end

-- The largest chunk Terraform takes when a state streams (128 MiB).
local MAX_CHUNK_SIZE = 128 * 1024 * 1024

-- tf.state_store { schema = { ... }, states = ..., read = ..., write = ..., delete = ...,
-- lock = ..., unlock = ... }: where Terraform keeps its own state (a `state_store` block).
function M.state_store(definition)
  local problem = type(definition) == "table"
    and duration_problem("tf.state_store: timeout", definition.timeout)
  if problem then
    error(problem, CALLER)
  end
  local size = type(definition) == "table" and definition.chunk_size or nil
  if size ~= nil and (math.type(size) ~= "integer" or size < 1 or size > MAX_CHUNK_SIZE) then
    error(string.format("tf.state_store: chunk_size must be a whole number of bytes from 1 to %d,"
      .. " got %s", MAX_CHUNK_SIZE, tostring(size)), CALLER)
  end
  if type(definition) == "table" and (definition.lock == nil) ~= (definition.unlock == nil) then
    error("tf.state_store: lock and unlock go together: a store that takes locks must release"
      .. " them", CALLER)
  end
  local tagged = define("state_store", definition,
    { states = true, read = true, write = true, delete = true, configure = false, lock = false,
      unlock = false },
    { timeout = true, chunk_size = true })
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
