-- luaform_testing_steps: the steps of an acceptance test, run with the real CLI in a working
-- directory (apply and check, plan only, refresh only, import and verify, query, invoke),
-- and the state they read back. Internal to the testing kit: test files reach it through
-- testing.acceptance; this module's names may change without notice.

local json = require("luaform_json")
local native = require("luaform_testing_native")
local assertions = require("luaform_testing_assert")

local sorted_keys, difference, show = assertions.sorted_keys, assertions.difference,
  assertions.show

local M = {}

-- `text` quoted for the shell.
function M.quote(text)
  return "'" .. tostring(text):gsub("'", "'\\''") .. "'"
end
local quote = M.quote

function M.write_file(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end
local write_file = M.write_file

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

-- The state in `dir`: { resources = { [address] = attributes }, outputs = { [name] = value } },
-- and the type of each resource by address.
function Run:state(dir)
  local output = self:must(dir, { "show", "-json", "-no-color" })
  -- Warnings (dev_overrides) may come first: the document is the last line.
  local document = output:match("(%b{})%s*$")
  local shown = json.decode(document or "{}")
  local state = { resources = {}, outputs = {} }
  local types = {}
  local values_of = shown["values"]
  if type(values_of) ~= "table" then
    return state, types
  end
  local function collect(module)
    for _, r in ipairs(module.resources or {}) do
      state.resources[r.address] = without_nulls(r["values"])
      types[r.address] = r.type
    end
    for _, child in ipairs(module.child_modules or {}) do
      collect(child)
    end
  end
  collect(values_of.root_module or {})
  for name, output_value in pairs(values_of.outputs or {}) do
    state.outputs[name] = without_nulls(output_value.value)
  end
  return state, types
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
  query = { query = true, config = true, check = true, expect_error = true, pre_config = true },
  invoke = { invoke = true, config = true, check = true, expect_error = true, pre_config = true },
}

-- The kind of a step: "query", "invoke", "config" or "import" (nil for none of them).
function M.step_kind(step)
  return step.query and "query" or step.invoke and "invoke" or step.config and "config"
    or step.import and "import" or nil
end

-- Fails with a message naming the step when it has a key its kind does not know.
function M.check_step_keys(i, step)
  local kind = M.step_kind(step)
  if not kind then
    error(string.format("step %d: a step needs config, import, query or invoke", i), 0)
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
  local shown, types = self:state(dir)
  local imported = shown.resources[step.import]
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
    local applied, compared = {}, {}
    for k, v in pairs(self.last.resources[step.import] or {}) do
      applied[k] = v
    end
    for k, v in pairs(imported) do
      compared[k] = v
    end
    for _, name in ipairs(step.verify_ignore or {}) do
      applied[name], compared[name] = nil, nil
    end
    -- As a plan compares them: what the resource's diff_suppress or state_func counts as the
    -- same, and null beside a zero value, are no difference.
    local same_applied, same_imported = native.equivalent(types[step.import], applied, compared)
    if same_applied ~= nil then
      applied, compared = same_applied, same_imported
    end
    local where, a, e = difference(compared, applied, "")
    if where then
      error(string.format("step %d: the imported %s differs from the applied one at %s: " ..
        "imported %s, applied %s", i, step.import, where, show(a), show(e)), 0)
    end
  end
end

-- The messages of the CLI's `-json` output, and its text as a person would read it (each
-- message, and each diagnostic's detail).
local function json_messages(output)
  local messages, lines = {}, {}
  for line in output:gmatch("[^\n]+") do
    local ok, message = pcall(json.decode, line)
    if ok and type(message) == "table" and message["@message"] then
      messages[#messages + 1] = message
      lines[#lines + 1] = message["@message"]
      local diagnostic = message.diagnostic
      if type(diagnostic) == "table" and type(diagnostic.detail) == "string" and
        diagnostic.detail ~= "" then
        lines[#lines + 1] = "  " .. diagnostic.detail:gsub("\n", "\n  ")
      end
    else
      lines[#lines + 1] = line
    end
  end
  return messages, table.concat(lines, "\n")
end

-- The configuration a query or invoke step runs with: its own, or the last one applied.
function Run:step_config(i, step, what)
  local config = step.config or self.config
  if not config then
    error(string.format("step %d: %s step needs config, or an applied configuration step " ..
      "before it", i, what), 0)
  end
  return config
end

-- A step whose CLI run must fail saying step.expect_error, or succeed.
local function expect(i, step, what, code, text)
  if step.expect_error then
    if code == 0 or not text:find(step.expect_error, 1, true) then
      error(string.format("step %d: %s was expected to fail with %q:\n%s", i, what,
        step.expect_error, text), 0)
    end
    return false
  end
  if code ~= 0 then
    error(string.format("step %d: %s failed (exit %d):\n%s", i, what, code, text), 0)
  end
  return true
end

local function run_check(i, step, value)
  if step.check then
    local ok, problem = pcall(step.check, value)
    if not ok then
      error(string.format("step %d: check failed: %s", i, tostring(problem)), 0)
    end
  end
end

-- `terraform query` of step.query (the text of a .tfquery.hcl file) beside the configuration,
-- in a new working directory; step.check gets what each list block found:
-- { ["list.TYPE.NAME"] = { { identity, display_name, object }, ... } }.
function Run:query_step(i, step)
  local config = self:step_config(i, step, "a query")
  local dir = self.root .. "/query-" .. i
  assert(os.execute("mkdir -p " .. quote(dir)))
  self:write_config(dir, config)
  write_file(dir .. "/main.tfquery.hcl", step.query)
  local code, output = self:cli(dir, { "query", "-json", "-no-color" })
  local messages, text = json_messages(output)
  if not expect(i, step, "query", code, text) then
    return
  end
  local results = {}
  for _, message in ipairs(messages) do
    local started, found = message.list_start, message.list_resource_found
    if type(started) == "table" then
      results[started.address] = results[started.address] or {}
    elseif type(found) == "table" then
      local list = results[found.address] or {}
      results[found.address] = list
      list[#list + 1] = without_nulls({ identity = found.identity,
        display_name = found.display_name, object = found.resource_object })
    end
  end
  run_check(i, step, results)
end

-- `terraform apply -invoke=ACTION` of step.invoke (as `action.TYPE.NAME`) with the step's
-- configuration in the working directory; step.check gets the action's progress messages.
function Run:invoke_step(i, step)
  local config = self:step_config(i, step, "an invoke")
  self:write_config(self.work, config)
  local code, output = self:cli(self.work, { "apply", "-auto-approve", "-input=false",
    "-no-color", "-json", "-invoke=" .. step.invoke })
  local messages, text = json_messages(output)
  if not expect(i, step, "apply -invoke=" .. step.invoke, code, text) then
    return
  end
  local progress, invoked = {}, false
  for _, message in ipairs(messages) do
    local hook = message.hook
    local action = type(hook) == "table" and hook.action
    if type(action) == "table" and action.addr == step.invoke then
      if message.type == "action_progress" then
        progress[#progress + 1] = hook.message
      elseif message.type == "action_complete" then
        invoked = true
      end
    end
  end
  if not invoked then
    error(string.format("step %d: apply -invoke=%s did not invoke it:\n%s", i, step.invoke,
      text), 0)
  end
  run_check(i, step, progress)
end

-- What the CLI the steps run is: { name = "Terraform" | "OpenTofu", version = { 1, 14, 0 },
-- text = "Terraform v1.14.0" }, from its `version` command (asked once).
function Run:cli_version()
  if self.version then
    return self.version
  end
  local _, output = self:cli(self.root, { "version" })
  local name, major, minor, patch = output:match("(%a+) v(%d+)%.(%d+)%.(%d+)")
  self.version = { name = name or "an unknown CLI", version = { tonumber(major) or 0,
    tonumber(minor) or 0, tonumber(patch) or 0 }, text = output:match("[^\n]*v%d+%.%d+%.%d+")
    or "an unknown CLI" }
  return self.version
end

-- The step kinds only some CLIs run, with what they need.
local FEATURES = {
  query = { command = "terraform query", since = { 1, 14 } },
  invoke = { command = "terraform apply -invoke", since = { 1, 14 } },
}
M.FEATURES = FEATURES

-- nil when the CLI runs `kind` steps (a key of FEATURES), else why not.
function Run:lacks(kind)
  local feature = FEATURES[kind]
  local cli = self:cli_version()
  local v = cli.version
  if cli.name == "Terraform" and (v[1] > feature.since[1] or
    (v[1] == feature.since[1] and v[2] >= feature.since[2])) then
    return nil
  end
  return string.format("%s steps need `%s`, which Terraform has from %d.%d on; the CLI (%s) " ..
    "is %s", kind, feature.command, feature.since[1], feature.since[2], self.binary, cli.text)
end

-- A run of one acceptance test: `fields` are binary (the CLI), name and source (the
-- provider's), root and work (its directories) and env (the CLI's environment). The steps
-- keep `last` (the last applied state), `config` (the last configuration applied) and
-- `applied` (whether anything may need destroying) in it.
function M.new_run(fields)
  return setmetatable(fields, Run)
end

return M
