-- Unit tests of localfs_file, localfs_directory and the data source, run without the CLI:
--   terraform-provider-localfs --test
local testing = require("luaform_testing")
local mode = require("lib.mode")
local text = require("lib.text")

local test, equal = testing.test, testing.equal

local HELLO_SHA256 = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"

local function read_file(path)
  local f = assert(io.open(path, "rb"))
  local bytes = f:read("a")
  f:close()
  return bytes
end

local function write_file(path, bytes)
  local f = assert(io.open(path, "wb"))
  f:write(bytes)
  f:close()
end

-- The provider rooted in a new directory, and that directory.
local function localfs()
  local root = testing.temp_dir()
  return testing.provider { root = root }, root
end

test("lib.mode spells modes with four digits", function()
  equal(mode.normal("644"), "0644")
  equal(mode.normal("1777"), "1777")
  equal(mode.validate("0644"), nil)
  testing.contains(mode.validate("888"), "is not a file mode")
end)

test("lib.text splits lines without an empty last line", function()
  equal(text.split_lines("a\nb\n"), { "a", "b" })
  equal(text.split_lines("a\n\nb"), { "a", "", "b" })
  equal(text.split_lines(""), {})
end)

testing.describe("localfs_file", function()
  test("plans the digest and size of configured content", function()
    local file = localfs():resource("localfs_file")
    local plan = file:plan { config = { path = "hello.txt", content = "hello\n" } }
    testing.no_errors(plan)
    equal(plan.planned.sha256, HELLO_SHA256)
    equal(plan.planned.size, 6)
    equal(plan.planned.file_permission, "0644")
    equal(plan.planned.id, testing.unknown)
  end)

  test("creates the file with its permission and records what is on disk", function()
    local provider, root = localfs()
    local file = provider:resource("localfs_file")
    local created = file:create { path = "sub/hello.txt", content = "hello\n",
      file_permission = "0600" }
    testing.no_errors(created)
    equal(read_file(root .. "/sub/hello.txt"), "hello\n")
    equal(created.state.id, "sub/hello.txt")
    equal(created.state.sha256, HELLO_SHA256)
    equal(created.state.file_permission, "0600")
    equal(created.identity, { path = "sub/hello.txt" })
  end)

  test("changes content in place and replaces the file for a new path", function()
    local provider, root = localfs()
    local file = provider:resource("localfs_file")
    local created = file:create { path = "a.txt", content = "one" }
    local updated = file:apply { prior = created, config = { path = "a.txt", content = "two" } }
    testing.no_errors(updated)
    equal(updated.replaced, false)
    equal(read_file(root .. "/a.txt"), "two")
    local moved = file:apply { prior = updated, config = { path = "b.txt", content = "two" } }
    testing.no_errors(moved)
    equal(moved.replaced, true)
    equal(read_file(root .. "/b.txt"), "two")
    equal(io.open(root .. "/a.txt"), nil, "the old file is deleted")
  end)

  test("notices content changed and files removed outside Terraform", function()
    local provider, root = localfs()
    local file = provider:resource("localfs_file")
    local created = file:create { path = "a.txt", content = "one" }
    write_file(root .. "/a.txt", "changed")
    local refreshed = file:read(created)
    equal(refreshed.state.content, "changed")
    local plan = file:plan { prior = refreshed, config = { path = "a.txt", content = "one" } }
    equal(plan.planned.content, "one")
    os.remove(root .. "/a.txt")
    equal(file:read(created).state, nil, "a removed file leaves the state")
  end)

  test("refuses two content forms, naming the attributes", function()
    local file = localfs():resource("localfs_file")
    local plan = file:plan { config = { path = "a.txt", content = "x", source = "y" } }
    testing.has_error(plan, "content_base64")
    local bad_mode = file:plan { config = { path = "a.txt", content = "x",
      file_permission = "888" } }
    testing.has_error(bad_mode, "is not a file mode", "file_permission")
  end)

  test("imports a file by its path", function()
    local provider, root = localfs()
    write_file(root .. "/found.txt", "hello\n")
    local imported = provider:resource("localfs_file"):import("found.txt")
    testing.no_errors(imported)
    equal(imported.state.content, "hello\n")
    equal(imported.state.sha256, HELLO_SHA256)
    local missing = provider:resource("localfs_file"):import("missing.txt")
    equal(missing.state, nil)
  end)

  test("imports a file by its identity, as an import block gives it", function()
    local provider, root = localfs()
    write_file(root .. "/found.txt", "hello\n")
    local file = provider:resource("localfs_file")
    local imported = file:import { identity = { path = "found.txt" } }
    testing.no_errors(imported)
    equal(imported.state.id, "found.txt")
    equal(imported.state.sha256, HELLO_SHA256)
    equal(imported.identity, { path = "found.txt" })
  end)

  test("is listed by directory and glob, up to the limit", function()
    local provider = localfs()
    local file = provider:resource("localfs_file")
    for _, path in ipairs({ "logs/a.txt", "logs/b.txt", "logs/notes.md", "logs/old/c.txt" }) do
      testing.no_errors(file:create { path = path, content = "hello\n" })
    end
    local files = provider:list_resource("localfs_file")
    local function paths(listed)
      testing.no_errors(listed)
      local found = {}
      for _, event in ipairs(listed.events) do
        found[#found + 1] = event.display_name
      end
      return found
    end
    equal(paths(files:list { config = { directory = "logs", pattern = "*.txt" } }),
      { "logs/a.txt", "logs/b.txt" })
    local all_txt = { directory = "logs", pattern = "*.txt", recursive = true }
    equal(paths(files:list { config = all_txt }),
      { "logs/a.txt", "logs/b.txt", "logs/old/c.txt" })
    equal(paths(files:list { config = { directory = "logs" }, limit = 1 }), { "logs/a.txt" })
    -- With include_resource each file is read as an import by its identity reads it.
    local whole = files:list { config = { directory = "logs", pattern = "b*" },
      include_resource = true }
    testing.no_errors(whole)
    equal(whole.events[1].identity, { path = "logs/b.txt" })
    equal(whole.events[1].object.sha256, HELLO_SHA256)
    -- A directory that is not there ends the listing with an error.
    testing.has_error(files:list { config = { directory = "missing" } }, "does not exist")
    -- Directories are listed by their own list resource.
    local directories = provider:list_resource("localfs_directory")
    equal(paths(directories:list { config = { directory = "logs" } }), { "logs/old" })
  end)

  test("keeps a file it cannot delete in the state", function()
    local provider, root = localfs()
    local file = provider:resource("localfs_file")
    local created = file:create { path = "d/a.txt", content = "x" }
    local dir = provider:resource("localfs_directory")
    local listed = dir:import("d")
    testing.no_errors(listed)
    local refused = dir:destroy(listed)
    testing.has_error(refused, "not empty")
    equal(refused.state.path, "d")
    testing.no_errors(file:destroy(created))
    equal(io.open(root .. "/d/a.txt"), nil)
  end)
end)

test("the file data source reads content, digest and lines", function()
  local provider, root = localfs()
  write_file(root .. "/data.txt", "hello\nworld\n")
  local read = provider:data_source("localfs_file"):read { path = "data.txt" }
  testing.no_errors(read)
  equal(read.state.lines, { "hello", "world" })
  equal(read.state.size, 12)
  local missing = provider:data_source("localfs_file"):read { path = "nope.txt" }
  testing.has_error(missing, "nope.txt")
end)
