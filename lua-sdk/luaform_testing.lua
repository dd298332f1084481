-- luaform_testing: the testing kit for provider authors. Test files (`tests/*_test.lua` beside
-- the scripts) are run by `terraform-provider-NAME --test`; they register tests with `test`
-- (or `describe` / `it`) and check results with the assertions below.
--
-- Unit tests call a resource's functions through the same engine the CLI talks to, on plain
-- tables: `provider(config):resource("x_thing"):apply { config = { ... } }` validates, plans
-- and applies as `tofu apply` would, without the CLI. Acceptance tests (`acceptance`) drive
-- the real CLI through steps like terraform-plugin-testing's; they run when TF_ACC is set.

local native = require("luaform_testing_native")
local values = require("luaform_values")
local json = require("luaform_json")

local M = {}

-- A value not known until apply, as plans show it (the same table as tf.unknown).
M.unknown = values.unknown

-------------------------------------------------------------------------------
-- Registering and running tests

local registered = {}
local groups = {}
-- Directories temp_dir made during the running test: removed when it passes, kept (for a
-- look at what it left) when it fails.
local made_dirs = {}

-- A new private directory for the running test.
function M.temp_dir()
  local dir = native.temp_dir()
  made_dirs[#made_dirs + 1] = dir
  return dir
end

-- Cleanups the running test registered (testing.cleanup), run when it ends, last first.
local cleanups = {}

-- Registers fn to run when the running test ends, whether it passed or failed (so that what a
-- unit test created for real is removed even when an assertion stops it). Cleanups run last
-- registered first; one that fails fails the test, after the others have run.
function M.cleanup(fn)
  if type(fn) ~= "function" then
    error("cleanup expects a function, as in testing.cleanup(function() ... end)", 2)
  end
  cleanups[#cleanups + 1] = fn
end

-- Runs and forgets the registered cleanups; returns the message of the first that failed.
local function run_cleanups()
  local first_problem
  for i = #cleanups, 1, -1 do
    local ok, problem = pcall(cleanups[i])
    if not ok and not first_problem then
      first_problem = "cleanup failed: " .. tostring(problem)
    end
  end
  cleanups = {}
  return first_problem
end

-- Registers the test `name`: `fn` runs with no arguments and fails by raising an error.
function M.test(name, fn)
  if type(name) ~= "string" or type(fn) ~= "function" then
    error("test expects a name and a function, as in test(\"creates\", function() ... end)", 2)
  end
  local full = name
  if #groups > 0 then
    full = table.concat(groups, " ") .. " " .. name
  end
  registered[#registered + 1] = { name = full, fn = fn }
end

-- busted's spelling: describe("group", function() it("does", function() ... end) end).
M.it = M.test

function M.describe(name, fn)
  groups[#groups + 1] = name
  local ok, problem = pcall(fn)
  groups[#groups] = nil
  if not ok then
    error(problem, 0)
  end
end

-- Called by the host after a test file has run: runs what it registered, prints a line per
-- test, and returns the counts passed, failed, skipped.
function M.run_registered()
  local passed, failed, skipped = 0, 0, 0
  for _, t in ipairs(registered) do
    if t.skip_unless and not t.skip_unless() then
      skipped = skipped + 1
      native.write(string.format("  skip  %s (%s)\n", t.name, t.skip_reason))
    else
      local ok, problem = pcall(t.fn)
      local cleanup_problem = run_cleanups()
      if cleanup_problem then
        problem = ok and cleanup_problem or (tostring(problem) .. "\n" .. cleanup_problem)
        ok = false
      end
      if ok then
        for _, dir in ipairs(made_dirs) do
          native.remove_tree(dir)
        end
      elseif #made_dirs > 0 then
        problem = tostring(problem) .. "\n(temporary directories kept: " ..
          table.concat(made_dirs, ", ") .. ")"
      end
      made_dirs = {}
      if ok then
        passed = passed + 1
        native.write(string.format("  ok    %s\n", t.name))
      else
        failed = failed + 1
        local indented = tostring(problem):gsub("\n", "\n        ")
        native.write(string.format("  FAIL  %s\n        %s\n", t.name, indented))
      end
    end
  end
  registered = {}
  return passed, failed, skipped
end

-------------------------------------------------------------------------------
-- Assertions: each raises an error naming the line of the test that called it.

local function sorted_keys(t)
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
  if v == M.unknown then
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
  for _, k in ipairs(sorted_keys(v)) do
    local key = math.type(k) == "integer" and "" or tostring(k) .. " = "
    parts[#parts + 1] = key .. show(v[k], depth + 1)
  end
  return "{ " .. table.concat(parts, ", ") .. " }"
end
M.show = show

-- Where `actual` and `expected` first differ: the path, and the two values there.
local function difference(actual, expected, path)
  if actual == expected then
    return nil
  end
  if type(actual) ~= "table" or type(expected) ~= "table" or actual == M.unknown
      or expected == M.unknown then
    return path, actual, expected
  end
  local keys = {}
  for k in pairs(expected) do
    keys[k] = true
  end
  for k in pairs(actual) do
    keys[k] = true
  end
  for _, k in ipairs(sorted_keys(keys)) do
    local step = math.type(k) == "integer" and "[" .. k .. "]" or "." .. tostring(k)
    local where, a, e = difference(actual[k], expected[k], path .. step)
    if where then
      return where, a, e
    end
  end
  return nil
end

-- Deep equality: tables are equal when every key holds equal values.
function M.equal(actual, expected, message)
  local where, a, e = difference(actual, expected, "")
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

local function describe_all(diagnostics)
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
      describe_all(errors)), 2)
  end
end

-- The first error whose summary or detail contains `text` (and, when given, is about
-- `attribute`); fails when there is none.
function M.has_error(result, text, attribute)
  for _, d in ipairs(M.errors(result)) do
    local says = (d.summary .. "\n" .. d.detail):find(text, 1, true)
    if says and (attribute == nil or d.attribute == attribute) then
      return d
    end
  end
  error(string.format("expected an error containing %q%s, got:\n%s", text,
    attribute and " about " .. attribute or "", describe_all(diagnostics_of(result))), 2)
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

-------------------------------------------------------------------------------
-- Unit tests: a provider's resources and data sources driven through the engine.

local Provider = {}
Provider.__index = Provider
local Resource = {}
Resource.__index = Resource
local DataSource = {}
DataSource.__index = DataSource

-- The provider configured with `config` (nil for none). Fails when it does not configure.
function M.provider(config)
  local handle, diagnostics = native.provider(config)
  if not handle or #M.errors(diagnostics) > 0 then
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
    if #M.errors(diagnostics) > 0 then
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
  if #M.errors(plan) > 0 then
    local state, private, identity = stored(args.prior)
    return { state = state, private = private, identity = identity, planned = plan.planned,
      diagnostics = plan.diagnostics, replaced = false }
  end
  if args.prior and args.prior.state ~= nil and #plan.requires_replace > 0 then
    local destroyed = self:destroy(args.prior)
    if #M.errors(destroyed) > 0 then
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
  if #M.errors(plan) > 0 then
    return plan
  end
  local result = apply_plan(self, { prior = prior }, plan)
  result.diagnostics = append(plan.diagnostics, result.diagnostics)
  return result
end

-- What `tofu import` does: ImportResourceState, then a read of the imported object.
-- { state, private, identity, diagnostics }; state is nil when nothing was found.
function Resource:import(id)
  local imported = self.handle:import(self.type, id)
  local first = imported.imported[1]
  if #M.errors(imported) > 0 or first == nil then
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

-------------------------------------------------------------------------------
-- Acceptance tests: the real CLI, steps like terraform-plugin-testing's.

-- `text` as an HCL string literal, for building configurations: JSON's escapes, and
-- template sequences ("${", "%{") kept literal.
function M.hcl_string(text)
  local quoted = json.encode(tostring(text))
  return (quoted:gsub("([$%%]){", "%1%1{"))
end

local function quote(text)
  return "'" .. tostring(text):gsub("'", "'\\''") .. "'"
end

local function write_file(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

local function executable(path)
  local f = io.open(path, "r")
  if f then
    f:close()
    return true
  end
  return false
end

-- The CLI: TF_ACC_TERRAFORM_PATH, else tofu or terraform found on PATH.
local function find_cli()
  local given = os.getenv("TF_ACC_TERRAFORM_PATH")
  if given and given ~= "" then
    return given
  end
  for dir in (os.getenv("PATH") or ""):gmatch("[^:]+") do
    for _, name in ipairs({ "tofu", "terraform" }) do
      if executable(dir .. "/" .. name) then
        return dir .. "/" .. name
      end
    end
  end
  error("acceptance tests need the CLI: set TF_ACC_TERRAFORM_PATH to a tofu or terraform " ..
    "binary, or put one on PATH", 0)
end

-- JSON nulls in objects become absent keys, as in unit test results.
local function without_nulls(v)
  if type(v) ~= "table" or v == json.null then
    return v
  end
  local out = {}
  for k, item in pairs(v) do
    if item ~= json.null or math.type(k) == "integer" then
      out[k] = without_nulls(item)
    end
  end
  return out
end

local Run = {}
Run.__index = Run

-- Runs the CLI in `dir` with `args`: exit code and output (stdout and stderr together).
function Run:cli(dir, args)
  local command = { "cd", quote(dir), "&&", "env" }
  for name, value in pairs(self.env) do
    command[#command + 1] = quote(name .. "=" .. value)
  end
  command[#command + 1] = quote(self.binary)
  for _, arg in ipairs(args) do
    command[#command + 1] = quote(arg)
  end
  command[#command + 1] = "2>&1"
  local pipe = assert(io.popen(table.concat(command, " ")))
  local output = pipe:read("a")
  local _, _, code = pipe:close()
  return code, output
end

function Run:must(dir, args)
  local code, output = self:cli(dir, args)
  if code ~= 0 then
    error(string.format("%s %s failed (exit %d):\n%s", self.binary, args[1], code, output), 0)
  end
  return output
end

-- The state in `dir`: { resources = { [address] = attributes }, outputs = { [name] = value } }.
function Run:state(dir)
  local output = self:must(dir, { "show", "-json", "-no-color" })
  -- Warnings (dev_overrides) may come first: the document is the last line.
  local document = output:match("(%b{})%s*$")
  local shown = json.decode(document or "{}")
  local state = { resources = {}, outputs = {} }
  local values_of = shown["values"]
  if type(values_of) ~= "table" then
    return state
  end
  local function collect(module)
    for _, r in ipairs(module.resources or {}) do
      state.resources[r.address] = without_nulls(r["values"])
    end
    for _, child in ipairs(module.child_modules or {}) do
      collect(child)
    end
  end
  collect(values_of.root_module or {})
  for name, output_value in pairs(values_of.outputs or {}) do
    state.outputs[name] = without_nulls(output_value.value)
  end
  return state
end

function Run:write_config(dir, config)
  write_file(dir .. "/main.tf", config)
  write_file(dir .. "/luaform_provider.tf", string.format(
    "terraform {\n  required_providers {\n    %s = { source = %q }\n  }\n}\n", self.name,
    self.source))
end

-- A plan-only step: plans the configuration without applying it; the plan must be empty, or
-- not empty with expect_non_empty_plan.
function Run:plan_step(i, step)
  self:write_config(self.work, step.config)
  local code, output = self:cli(self.work, { "plan", "-detailed-exitcode", "-input=false",
    "-no-color" })
  if step.expect_error then
    if code ~= 1 or not output:find(step.expect_error, 1, true) then
      error(string.format("step %d: plan was expected to fail with %q:\n%s", i,
        step.expect_error, output), 0)
    end
    return
  end
  if code == 1 then
    error(string.format("step %d: plan failed:\n%s", i, output), 0)
  end
  if code == 2 and not step.expect_non_empty_plan then
    error(string.format("step %d: the plan is not empty:\n%s", i, output), 0)
  elseif code == 0 and step.expect_non_empty_plan then
    error(string.format("step %d: the plan is empty, but expect_non_empty_plan says it is not", i),
      0)
  end
end

function Run:config_step(i, step)
  if step.plan_only then
    return self:plan_step(i, step)
  end
  local args = { "apply", "-auto-approve", "-input=false", "-no-color" }
  if step.refresh_only then
    -- Reads what changed outside Terraform into the state, changing nothing.
    args[#args + 1] = "-refresh-only"
  end
  self:write_config(self.work, step.config)
  local code, output = self:cli(self.work, args)
  self.applied = true
  if step.expect_error then
    if code == 0 then
      error(string.format("step %d: apply succeeded, but an error containing %q was expected",
        i, step.expect_error), 0)
    end
    if not output:find(step.expect_error, 1, true) then
      error(string.format("step %d: apply failed without %q:\n%s", i, step.expect_error,
        output), 0)
    end
    return
  end
  if code ~= 0 then
    error(string.format("step %d: apply failed (exit %d):\n%s", i, code, output), 0)
  end
  self.last = self:state(self.work)
  self.config = step.config
  if step.check then
    local ok, problem = pcall(step.check, self.last)
    if not ok then
      error(string.format("step %d: check failed: %s", i, tostring(problem)), 0)
    end
  end
  -- After an apply the configuration and the world agree: a new plan must be empty.
  local plan_code, plan_output = self:cli(self.work, { "plan", "-detailed-exitcode",
    "-input=false", "-no-color" })
  if plan_code == 2 and not step.expect_non_empty_plan then
    error(string.format("step %d: the plan after apply is not empty:\n%s", i, plan_output), 0)
  elseif plan_code == 0 and step.expect_non_empty_plan then
    error(string.format("step %d: the plan after apply is empty, but expect_non_empty_plan " ..
      "says it is not", i), 0)
  elseif plan_code ~= 0 and plan_code ~= 2 then
    error(string.format("step %d: plan failed (exit %d):\n%s", i, plan_code, plan_output), 0)
  end
end

-- The keys a step may have, by kind: an unknown one (a misspelling) is an error, not ignored.
local STEP_KEYS = {
  config = { config = true, check = true, expect_error = true, expect_non_empty_plan = true,
    plan_only = true, refresh_only = true, pre_config = true },
  import = { import = true, id = true, verify = true, verify_ignore = true, check = true,
    expect_error = true, pre_config = true },
}

local function check_step_keys(i, step)
  local kind = step.config and "config" or (step.import and "import")
  if not kind then
    error(string.format("step %d: a step needs config or import", i), 0)
  end
  for _, key in ipairs(sorted_keys(step)) do
    if not STEP_KEYS[kind][key] then
      error(string.format("step %d: a %s step has no key %q (keys: %s)", i, kind, tostring(key),
        table.concat(sorted_keys(STEP_KEYS[kind]), ", ")), 0)
    end
  end
  if step.plan_only and step.refresh_only then
    error(string.format("step %d: plan_only and refresh_only do not go together", i), 0)
  end
end

-- Imports step.import (an address) by step.id (or step.id(state)) into a new working
-- directory with the last configuration; with step.verify the imported attributes must equal
-- the applied ones, except those named in step.verify_ignore.
function Run:import_step(i, step)
  if not self.config then
    error(string.format("step %d: an import step needs an applied configuration step first", i),
      0)
  end
  local id = step.id
  if type(id) == "function" then
    id = id(self.last)
  end
  local dir = self.root .. "/import-" .. i
  assert(os.execute("mkdir -p " .. quote(dir)))
  self:write_config(dir, self.config)
  local code, output = self:cli(dir, { "import", "-input=false", "-no-color", step.import,
    tostring(id) })
  if step.expect_error then
    if code == 0 or not output:find(step.expect_error, 1, true) then
      error(string.format("step %d: import was expected to fail with %q:\n%s", i,
        step.expect_error, output), 0)
    end
    return
  end
  if code ~= 0 then
    error(string.format("step %d: import of %s failed (exit %d):\n%s", i, step.import, code,
      output), 0)
  end
  local imported = self:state(dir).resources[step.import]
  if imported == nil then
    error(string.format("step %d: import left no %s in the state", i, step.import), 0)
  end
  if step.check then
    local ok, problem = pcall(step.check, imported)
    if not ok then
      error(string.format("step %d: check failed: %s", i, tostring(problem)), 0)
    end
  end
  if step.verify then
    local applied = {}
    for k, v in pairs(self.last.resources[step.import] or {}) do
      applied[k] = v
    end
    for _, name in ipairs(step.verify_ignore or {}) do
      applied[name], imported[name] = nil, nil
    end
    local where, a, e = difference(imported, applied, "")
    if where then
      error(string.format("step %d: the imported %s differs from the applied one at %s: " ..
        "imported %s, applied %s", i, step.import, where, show(a), show(e)), 0)
    end
  end
end

local function run_acceptance(spec)
  if type(spec) == "function" then
    spec = spec()
  end
  local env = native.environment()
  local run = setmetatable({
    binary = find_cli(),
    name = env.name,
    source = "registry.opentofu.org/luaform/" .. env.name,
    root = native.temp_dir(),
  }, Run)
  run.work = run.root .. "/work"
  local plugins = run.root .. "/plugins"
  assert(os.execute("mkdir -p " .. quote(run.work) .. " " .. quote(plugins)))
  assert(os.execute("ln -s " .. quote(env.host) .. " " ..
    quote(plugins .. "/terraform-provider-" .. env.name)))
  write_file(run.root .. "/cli.tfrc", string.format(
    "provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n",
    run.source, plugins))
  run.env = {
    TF_CLI_CONFIG_FILE = run.root .. "/cli.tfrc",
    TF_IN_AUTOMATION = "1",
    CHECKPOINT_DISABLE = "1",
    -- The plugin is the host binary linked under the provider's name: these tell it where its
    -- scripts are.
    LUAFORM_PROVIDER_DIR = env.directory,
    LUAFORM_PROVIDER_NAME = env.name,
  }
  local ok, problem = pcall(function()
    for i, step in ipairs(spec.steps or {}) do
      check_step_keys(i, step)
      -- pre_config: what happens outside Terraform before the step (drift made through the
      -- API, as terraform-plugin-testing's PreConfig), given the last applied state.
      if step.pre_config then
        local done, problem = pcall(step.pre_config, run.last)
        if not done then
          error(string.format("step %d: pre_config failed: %s", i, tostring(problem)), 0)
        end
      end
      if step.config then
        run:config_step(i, step)
      else
        run:import_step(i, step)
      end
    end
  end)
  -- Whatever happened, nothing created is left behind: destroyed with the last configuration
  -- that applied (a step expecting an error may have left one that does not validate).
  if run.applied then
    if run.config then
      run:write_config(run.work, run.config)
    end
    local code, output = run:cli(run.work, { "destroy", "-auto-approve", "-input=false",
      "-no-color" })
    if ok and code ~= 0 then
      ok, problem = false, string.format("destroy failed (exit %d):\n%s", code, output)
    end
    if ok and spec.check_destroy then
      ok, problem = pcall(spec.check_destroy, run.last)
    end
  end
  if not ok then
    error(tostring(problem) .. "\n(working directory kept: " .. run.root .. ")", 0)
  end
  native.remove_tree(run.root)
end

-- Registers an acceptance test: spec.steps run in order, each either
--   { config = "HCL", check = function(state), expect_error = "text",
--     expect_non_empty_plan = true, plan_only = true | refresh_only = true,
--     pre_config = function(last_state) }
--   { import = "address", id = "id" | function(state), verify = true,
--     verify_ignore = { "attribute" }, check = function(attributes), expect_error = "text",
--     pre_config = function(last_state) }
-- and spec.check_destroy(last_state) runs after the final destroy. `spec` may also be a
-- function returning that table, called when the test runs (to make its directories then).
-- It runs only when TF_ACC is set, as Go providers' acceptance tests do.
function M.acceptance(name, spec)
  if type(name) ~= "string" or (type(spec) ~= "table" and type(spec) ~= "function") then
    error("acceptance expects a name and a table of steps (or a function returning one)", 2)
  end
  M.test("acceptance: " .. name, function()
    run_acceptance(spec)
  end)
  local t = registered[#registered]
  t.skip_unless = function()
    local acc = os.getenv("TF_ACC")
    return acc ~= nil and acc ~= ""
  end
  t.skip_reason = "set TF_ACC=1 to run acceptance tests with the real CLI"
end

return M
