-- luaform_testing_unit: unit tests of a provider's resources, data sources, list resources and
-- actions, driven through the same engine the CLI talks to, on plain tables
-- (testing.provider(config):resource(...)).
-- Internal to the testing kit: test files get this through require("luaform_testing"); this
-- module's other names may change without notice.

local native = require("luaform_testing_native")
local assertions = require("luaform_testing_assert")

local errors, describe_all = assertions.errors, assertions.describe_all

local M = {}

local Provider = {}
Provider.__index = Provider
local Resource = {}
Resource.__index = Resource
local DataSource = {}
DataSource.__index = DataSource
local ListResource = {}
ListResource.__index = ListResource
local Action = {}
Action.__index = Action
local StateStore = {}
StateStore.__index = StateStore

-- The provider configured with `config` (nil for none). Fails when it does not configure.
function M.provider(config)
  local handle, diagnostics = native.provider(config)
  if not handle or #errors(diagnostics) > 0 then
    error("the provider did not load and configure:\n" .. describe_all(diagnostics), 2)
  end
  return setmetatable({ handle = handle, diagnostics = diagnostics }, Provider)
end

function Provider:resource(type_name)
  return setmetatable({ handle = self.handle, type = type_name }, Resource)
end

function Provider:data_source(type_name)
  return setmetatable({ handle = self.handle, type = type_name }, DataSource)
end

function Provider:list_resource(type_name)
  return setmetatable({ handle = self.handle, type = type_name }, ListResource)
end

function Provider:action(type_name)
  return setmetatable({ handle = self.handle, type = type_name }, Action)
end

function Provider:state_store(type_name)
  return setmetatable({ handle = self.handle, type = type_name }, StateStore)
end

local function append(into, diagnostics)
  for _, d in ipairs(diagnostics or {}) do
    into[#into + 1] = d
  end
  return into
end

-- The stored object a previous result describes (its state, private data and identity).
local function stored(prior)
  prior = prior or {}
  return prior.state, prior.private, prior.identity
end

-- PlanResourceChange for `args.config` (nil: destroy) on top of `args.prior` (a result of
-- apply, read or import; nil for a new object): { planned, requires_replace, private,
-- identity, diagnostics }.
function Resource:plan(args)
  local state, private, identity = stored(args.prior)
  local diagnostics = {}
  if args.config ~= nil then
    append(diagnostics, self.handle:validate(self.type, args.config))
    if #errors(diagnostics) > 0 then
      return { diagnostics = diagnostics, requires_replace = {} }
    end
  end
  local result = self.handle:plan(self.type, state, args.config, private, identity)
  result.diagnostics = append(diagnostics, result.diagnostics)
  return result
end

local function apply_plan(self, args, plan)
  local state, _, _ = stored(args.prior)
  local result = self.handle:apply(self.type, state, plan.planned, args.config, plan.private,
    plan.identity)
  result.planned = plan.planned
  return result
end

-- What `tofu apply` does with `args.config` on top of `args.prior`: validate, plan, and
-- apply; a plan that requires replacement destroys the prior object and creates a new one.
-- Returns { state (nil once gone), private, identity, planned, replaced, diagnostics }. When
-- planning fails nothing is applied and the prior object is returned unchanged.
function Resource:apply(args)
  local plan = self:plan(args)
  if #errors(plan) > 0 then
    local state, private, identity = stored(args.prior)
    return { state = state, private = private, identity = identity, planned = plan.planned,
      diagnostics = plan.diagnostics, replaced = false }
  end
  if args.prior and args.prior.state ~= nil and #plan.requires_replace > 0 then
    local destroyed = self:destroy(args.prior)
    if #errors(destroyed) > 0 then
      destroyed.state, destroyed.private, destroyed.identity = stored(args.prior)
      destroyed.replaced = false
      return destroyed
    end
    local created = self:apply { config = args.config }
    created.diagnostics = append(append(plan.diagnostics, destroyed.diagnostics),
      created.diagnostics)
    created.replaced = true
    return created
  end
  local result = apply_plan(self, args, plan)
  result.diagnostics = append(plan.diagnostics, result.diagnostics)
  result.replaced = false
  return result
end

-- Creates a new object from `config`.
function Resource:create(config)
  return self:apply { config = config }
end

-- ReadResource (refresh) of a stored object: { state (nil when it is gone), private,
-- identity, diagnostics }.
function Resource:read(prior)
  local state, private, identity = stored(prior)
  return self.handle:read(self.type, state, private, identity)
end

-- Destroys a stored object: { diagnostics } (and the state kept when the delete failed).
function Resource:destroy(prior)
  local plan = self:plan { prior = prior }
  if #errors(plan) > 0 then
    return plan
  end
  local result = apply_plan(self, { prior = prior }, plan)
  result.diagnostics = append(plan.diagnostics, result.diagnostics)
  return result
end

-- What `tofu import` does: ImportResourceState, then a read of the imported object. `what` is
-- the id, or { id = "..." } or { identity = { ... } } (an import block's identity).
-- { state, private, identity, diagnostics }; state is nil when nothing was found.
function Resource:import(what)
  local id, identity = what, nil
  if type(what) == "table" then
    id, identity = what.id, what.identity
    for key in pairs(what) do
      if key ~= "id" and key ~= "identity" then
        error(("import takes an id, { id = ... } or { identity = { ... } }, not a key %q")
          :format(tostring(key)), 2)
      end
    end
  end
  if (id == nil) == (identity == nil) then
    error("import takes either an id or an identity", 2)
  end
  local imported = self.handle:import(self.type, id, identity)
  local first = imported.imported[1]
  if #errors(imported) > 0 or first == nil then
    return { diagnostics = imported.diagnostics }
  end
  local result = self:read(first)
  result.diagnostics = append(imported.diagnostics, result.diagnostics)
  return result
end

-- ReadDataSource with `config`: { state, diagnostics }.
function DataSource:read(config)
  return self.handle:read_data(self.type, config)
end

local LIST_KEYS = { config = true, limit = true, include_resource = true }

-- What `terraform query` does with a list block: args.config (the block's filters), args.limit
-- (100 unless given) and args.include_resource. { events = { { identity, display_name,
-- object, diagnostics } ... }, diagnostics }: an event that only carries diagnostics (an
-- element left out, the error that ended the listing) has no identity; `diagnostics` holds
-- the validation's and every event's.
function ListResource:list(args)
  args = args or {}
  for key in pairs(args) do
    if not LIST_KEYS[key] then
      error(("list takes config, limit and include_resource, not a key %q"):format(
        tostring(key)), 2)
    end
  end
  return self.handle:list(self.type, args.config, args.limit, args.include_resource)
end

-- PlanAction with `config`, as a plan that includes the action block: { diagnostics }.
function Action:plan(config)
  return self.handle:plan_action(self.type, config)
end

-- What `terraform init` does with a state_store block: validation, then ConfigureStateStore.
-- { chunk_size, diagnostics }; the calls after it stream states in chunks of that size.
function StateStore:configure(config)
  local result = self.handle:configure_store(self.type, config)
  self.chunk_size = result.chunk_size
  return result
end

-- GetStates: { states = { name ... }, diagnostics }.
function StateStore:states()
  return self.handle:store(self.type, "states")
end

-- ReadStateBytes, joined from its chunks: { state (nil when there is none), diagnostics }.
function StateStore:read(id)
  return self.handle:store(self.type, "read", id)
end

-- WriteStateBytes, `state` sent in chunks of the size configure agreed: { diagnostics }.
function StateStore:write(id, state)
  return self.handle:store(self.type, "write", id, state, self.chunk_size or 8 * 1024 * 1024)
end

-- DeleteState: { diagnostics }.
function StateStore:delete(id)
  return self.handle:store(self.type, "delete", id)
end

-- LockState for `operation` ("OperationTypeApply" unless given): { lock_id, diagnostics }.
function StateStore:lock(id, operation)
  return self.handle:store(self.type, "lock", id, operation)
end

-- UnlockState of the lock `lock_id`: { diagnostics }.
function StateStore:unlock(id, lock_id)
  return self.handle:store(self.type, "unlock", id, lock_id)
end

-- What `terraform apply -invoke` does: the plan, then (unless it failed) InvokeAction.
-- { progress = { message ... }, diagnostics }.
function Action:invoke(config)
  local plan = self:plan(config)
  if #errors(plan) > 0 then
    return { progress = {}, diagnostics = plan.diagnostics }
  end
  local result = self.handle:invoke_action(self.type, config)
  result.diagnostics = append(plan.diagnostics, result.diagnostics)
  return result
end

return M
