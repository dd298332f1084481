-- luaform_testing: the testing kit for provider authors. Test files (`tests/*_test.lua` beside
-- the scripts) are run by `terraform-provider-NAME --test`; they register tests with `test`
-- (or `describe` / `it`) and check results with the assertions below.
--
-- Unit tests call a resource's functions through the same engine the CLI talks to, on plain
-- tables: `provider(config):resource("x_thing"):apply { config = { ... } }` validates, plans
-- and applies as `tofu apply` would, without the CLI. Acceptance tests (`acceptance`) drive
-- the real CLI through steps like terraform-plugin-testing's; they run when TF_ACC is set.
--
-- This file only assembles the public table, so that it lists every name test files may use.
-- The parts live beside it, each internal to the kit: luaform_testing_runner (registering and
-- running tests), luaform_testing_assert (assertions), luaform_testing_unit (the engine on
-- tables), luaform_testing_acceptance and luaform_testing_steps (the real CLI). The host calls
-- run_registered after each test file.

local runner = require("luaform_testing_runner")
local assertions = require("luaform_testing_assert")
local unit = require("luaform_testing_unit")
local acceptance = require("luaform_testing_acceptance")

local M = {}

-- A value not known until apply, as plans show it (the same table as tf.unknown).
M.unknown = require("luaform_values").unknown

-- Registering and running tests.
M.test = runner.test
M.it = runner.it
M.describe = runner.describe
M.temp_dir = runner.temp_dir
M.cleanup = runner.cleanup
M.skip = runner.skip
M.run_registered = runner.run_registered

-- Assertions: each raises an error naming the line of the test that called it.
M.equal = assertions.equal
M.truthy = assertions.truthy
M.contains = assertions.contains
M.errors = assertions.errors
M.no_errors = assertions.no_errors
M.has_error = assertions.has_error
M.raises = assertions.raises
M.show = assertions.show

-- Unit tests: a provider's resources and data sources driven through the engine.
M.provider = unit.provider

-- Acceptance tests: the real CLI, steps like terraform-plugin-testing's.
M.acceptance = acceptance.acceptance
M.hcl_string = acceptance.hcl_string

return M
