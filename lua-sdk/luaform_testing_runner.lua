-- luaform_testing_runner: registering tests (test, it, describe), what a test leaves behind
-- (temp_dir, cleanup), and running them when the host asks. Internal to the testing kit: test
-- files get these through require("luaform_testing"); this module's other names may change
-- without notice.

local native = require("luaform_testing_native")

local M = {}

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

-- Adds a test under the names of the describe groups around it. `skip`, when given, is
-- { unless = function() -> boolean, reason = text }: the test is skipped unless that says true.
function M.register(name, fn, skip)
  local full = name
  if #groups > 0 then
    full = table.concat(groups, " ") .. " " .. name
  end
  registered[#registered + 1] = { name = full, fn = fn, skip_unless = skip and skip.unless,
    skip_reason = skip and skip.reason }
end

-- Registers the test `name`: `fn` runs with no arguments and fails by raising an error.
function M.test(name, fn)
  if type(name) ~= "string" or type(fn) ~= "function" then
    error("test expects a name and a function, as in test(\"creates\", function() ... end)", 2)
  end
  M.register(name, fn)
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

-- What `skip` raises: a test that raises it is reported as skipped, with the reason.
local Skip = {}
Skip.__tostring = function(self)
  return "skipped: " .. self.reason
end

-- Ends the running test as skipped, saying why: for a test that finds, once it runs, that it
-- cannot run here (a CLI without a feature it needs).
function M.skip(reason)
  error(setmetatable({ reason = tostring(reason) }, Skip), 0)
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
      local skip_reason
      if not ok and getmetatable(problem) == Skip then
        ok, skip_reason = true, problem.reason
      end
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
      if ok and skip_reason then
        skipped = skipped + 1
        native.write(string.format("  skip  %s (%s)\n", t.name, skip_reason))
      elseif ok then
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

return M
