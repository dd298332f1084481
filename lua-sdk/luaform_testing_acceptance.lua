-- luaform_testing_acceptance: acceptance tests, which drive the real CLI through steps like
-- terraform-plugin-testing's: finding the CLI, a working directory whose CLI configuration
-- points at this provider, and the destroy at the end. Internal to the testing kit: test files
-- get these through require("luaform_testing"); this module's other names may change without
-- notice.

local native = require("luaform_testing_native")
local json = require("luaform_json")
local runner = require("luaform_testing_runner")
local steps = require("luaform_testing_steps")

local quote, write_file = steps.quote, steps.write_file

local M = {}

-- `text` as an HCL string literal, for building configurations: JSON's escapes, and
-- template sequences ("${", "%{") kept literal.
function M.hcl_string(text)
  local quoted = json.encode(tostring(text))
  return (quoted:gsub("([$%%]){", "%1%1{"))
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

local SPEC_KEYS = { steps = true, check_destroy = true, needs = true }

-- Before anything is applied: a step the CLI cannot run fails the test, saying what it needs,
-- unless spec.needs names it (then the test is skipped, saying why).
local function check_features(run, spec)
  for _, kind in ipairs(spec.needs or {}) do
    if not steps.FEATURES[kind] then
      error(string.format("needs: no step kind %q needs a particular CLI (kinds: query, invoke)",
        tostring(kind)), 0)
    end
  end
  for _, kind in ipairs(spec.needs or {}) do
    local why = run:lacks(kind)
    if why then
      runner.skip(why)
    end
  end
  for i, step in ipairs(spec.steps or {}) do
    local kind = steps.step_kind(step)
    local why = steps.FEATURES[kind] and run:lacks(kind)
    if why then
      error(string.format("step %d: %s (run the test with Terraform: TF_ACC_TERRAFORM_PATH; or " ..
        "give the test needs = { %q } to skip it on CLIs without it)", i, why, kind), 0)
    end
  end
end

local function run_acceptance(spec)
  if type(spec) == "function" then
    spec = spec()
  end
  for key in pairs(spec) do
    if not SPEC_KEYS[key] then
      error(string.format("an acceptance test has no key %q (keys: check_destroy, needs, steps)",
        tostring(key)), 0)
    end
  end
  local env = native.environment()
  local run = steps.new_run({
    binary = find_cli(),
    name = env.name,
    source = "registry.opentofu.org/luaform/" .. env.name,
    root = native.temp_dir(),
  })
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
  local checked, unable = pcall(check_features, run, spec)
  if not checked then
    native.remove_tree(run.root)
    error(unable, 0)
  end
  local ok, problem = pcall(function()
    for i, step in ipairs(spec.steps or {}) do
      steps.check_step_keys(i, step)
      -- pre_config: what happens outside Terraform before the step (drift made through the
      -- API, as terraform-plugin-testing's PreConfig), given the last applied state.
      if step.pre_config then
        local done, problem = pcall(step.pre_config, run.last)
        if not done then
          error(string.format("step %d: pre_config failed: %s", i, tostring(problem)), 0)
        end
      end
      local kind = steps.step_kind(step)
      if kind == "query" then
        run:query_step(i, step)
      elseif kind == "invoke" then
        run:invoke_step(i, step)
      elseif kind == "config" then
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
--   { query = "list blocks (a .tfquery.hcl file)", config = "HCL" (default: the last
--     applied), check = function(results), expect_error = "text", pre_config = ... }
--   { invoke = "action.TYPE.NAME", config = "HCL" (default: the last applied),
--     check = function(progress), expect_error = "text", pre_config = ... }
-- and spec.check_destroy(last_state) runs after the final destroy. Query and invoke steps need
-- Terraform 1.14 or later: on another CLI they fail the test, unless spec.needs names them
-- ({ "query", "invoke" }), which skips it there. `spec` may also be a
-- function returning that table, called when the test runs (to make its directories then).
-- It runs only when TF_ACC is set, as Go providers' acceptance tests do.
function M.acceptance(name, spec)
  if type(name) ~= "string" or (type(spec) ~= "table" and type(spec) ~= "function") then
    error("acceptance expects a name and a table of steps (or a function returning one)", 2)
  end
  runner.register("acceptance: " .. name, function()
    run_acceptance(spec)
  end, {
    unless = function()
      local acc = os.getenv("TF_ACC")
      return acc ~= nil and acc ~= ""
    end,
    reason = "set TF_ACC=1 to run acceptance tests with the real CLI",
  })
end

return M
