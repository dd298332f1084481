-- Acceptance tests of localfs with the real CLI (TF_ACC=1; TF_ACC_TERRAFORM_PATH names the CLI):
--   TF_ACC=1 terraform-provider-localfs --test
local testing = require("luaform_testing")

local function file_config(path, content, permission)
  return string.format([[
resource "localfs_file" "f" {
  path            = %s
  content         = %s
  file_permission = %s
}
]], testing.hcl_string(path), testing.hcl_string(content), testing.hcl_string(permission))
end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then
    return nil
  end
  local bytes = f:read("a")
  f:close()
  return bytes
end

testing.acceptance("localfs_file lifecycle", function()
  local path = testing.temp_dir() .. "/acceptance.txt"
  return {
    steps = {
      {
        config = file_config(path, "one\n", "0600"),
        check = function(state)
          local f = state.resources["localfs_file.f"]
          testing.equal(f.content, "one\n")
          testing.equal(f.file_permission, "0600")
          testing.equal(read_file(path), "one\n")
        end,
      },
      {
        config = file_config(path, "two\n", "0640"),
        check = function(state)
          testing.equal(state.resources["localfs_file.f"].size, 4)
          testing.equal(read_file(path), "two\n")
        end,
      },
      { import = "localfs_file.f", id = path, verify = true },
      {
        config = file_config(path, "two\n", "9999"),
        expect_error = "is not a file mode",
      },
    },
    check_destroy = function()
      testing.equal(read_file(path), nil, "destroy removes the file")
    end,
  }
end)

-- Drift made outside Terraform before a step (pre_config): a plan-only step sees it, a
-- refresh-only step takes it into the state, and a plan-only step then finds the state and the
-- file agree while the configuration does not.
testing.acceptance("localfs_file drift", function()
  local path = testing.temp_dir() .. "/drift.txt"
  local function overwrite()
    local f = assert(io.open(path, "wb"))
    f:write("changed outside\n")
    f:close()
  end
  return {
    steps = {
      { config = file_config(path, "one\n", "0600") },
      { config = file_config(path, "one\n", "0600"), pre_config = overwrite, plan_only = true,
        expect_non_empty_plan = true },
      {
        config = file_config(path, "one\n", "0600"),
        refresh_only = true,
        expect_non_empty_plan = true,
        check = function(state)
          testing.equal(state.resources["localfs_file.f"].content, "changed outside\n")
          testing.equal(read_file(path), "changed outside\n", "a refresh changes no file")
        end,
      },
      { config = file_config(path, "one\n", "0600") },
      { config = file_config(path, "one\n", "0600"), plan_only = true },
    },
  }
end)
