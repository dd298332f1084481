// The native half of the authors' testing kit (host/lua/testing/testing_module.cpp), driven the
// way `--test` drives it: a test file of the kit run on a provider written by the test, whose
// report is read back.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "host/lua/testing/test_runner.h"
#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;

namespace {

// A provider with a required argument, and notes kept in its client.
const char* kProvider = R"(local tf = require("luaform")
return tf.provider {
  schema = {
    endpoint = tf.string { required = true },
    region = tf.string { optional = true, deprecated = "the endpoint says it" },
  },
  configure = function(config)
    return { endpoint = config.endpoint,
      notes = { alpha = "first", beta = "second", gamma = "third" } }
  end,
}
)";

// A note: required arguments at the top and in a block, an identity of its name, and a host
// whose trailing dot does not count.
const char* kNote = R"(local tf = require("luaform")
return tf.resource {
  schema = {
    name = tf.string { required = true, force_new = true },
    text = tf.string { optional = true },
    host = tf.string { optional = true, diff_suppress = function(_, old, new)
      return old:gsub("%.$", "") == new:gsub("%.$", "")
    end },
    size = tf.number { computed = true },
    rule = tf.list_block { schema = { port = tf.number { required = true } } },
  },
  identity = { schema = { name = tf.string { required_for_import = true } } },
  create = function(d) d:set_id(d:get("name")) end,
  read = function(d, client)
    local text = client.notes[d:id()]
    if text == nil then
      d:set_id("")
      return
    end
    d:set("name", d:id())
    d:set("text", text)
  end,
  delete = function() end,
  import = function(d)
    local identity = d:identity()
    d:set_id(identity and identity.name or d:id())
  end,
}
)";

const char* kListNotes = R"(local tf = require("luaform")
return tf.list_resource {
  schema = {
    prefix = tf.string { required = true },
  },
  list = function(request, emit, client)
    local names = {}
    for name in pairs(client.notes) do
      if name:sub(1, #request.config.prefix) == request.config.prefix then
        names[#names + 1] = name
      end
    end
    table.sort(names)
    emit { display_name = "no identity" }
    for _, name in ipairs(names) do
      if not emit { identity = { name = name }, display_name = "Note " .. name } then
        return
      end
    end
  end,
}
)";

const char* kAction = R"(local tf = require("luaform")
return tf.action {
  schema = { message = tf.string { required = true } },
  plan = function(config)
    if config.message == "" then error("message is empty") end
  end,
  invoke = function(config, progress, client)
    progress("to " .. client.endpoint)
    progress("said " .. config.message)
    if config.message == "fail" then error("it failed") end
  end,
}
)";

// States in a table of the script, streamed in chunks of 8 bytes, locked one holder at a time.
const char* kStore = R"(local tf = require("luaform")
local states, locks = {}, {}
return tf.state_store {
  chunk_size = 8,
  schema = { prefix = tf.string { required = true } },
  states = function(config)
    local ids = {}
    for key in pairs(states) do ids[#ids + 1] = key:sub(#config.prefix + 1) end
    table.sort(ids)
    return ids
  end,
  read = function(config, id) return states[config.prefix .. id] end,
  write = function(config, id, state) states[config.prefix .. id] = state end,
  delete = function(config, id) states[config.prefix .. id] = nil end,
  lock = function(_, id, info)
    if locks[id] then error("locked by " .. locks[id]) end
    locks[id] = info.id
  end,
  unlock = function(_, id, lock_id)
    if locks[id] ~= lock_id then error("not the holder") end
    locks[id] = nil
  end,
}
)";

struct KitRun {
  ProviderDir dir;
  std::string out;
  std::string err;
  lua::TestTotals totals;

  // Runs `tests` (the body of a test file, after `local testing = require(...)`) on the
  // provider above.
  explicit KitRun(const std::string& tests) {
    dir.write("provider.lua", kProvider);
    dir.write("resource_note.lua", kNote);
    dir.write("list_note.lua", kListNotes);
    dir.write("action_ping.lua", kAction);
    dir.write("state_store_memo.lua", kStore);
    const auto file = dir.write("tests/kit_test.lua",
                                "local testing = require(\"luaform_testing\")\n"
                                "local equal = testing.equal\n" +
                                    tests);
    std::ostringstream o;
    std::ostringstream e;
    totals = lua::run_tests(dir.scripts(), {file.string()}, o, e);
    out = o.str();
    err = e.str();
  }
};

#define CHECK_PASSED(run, n)           \
  do {                                 \
    INFO((run).out, (run).err);        \
    CHECK((run).totals.passed == (n)); \
    CHECK((run).totals.failed == 0);   \
  } while (false)

}  // namespace

TEST_CASE("a provider configuration without a required argument is refused before configure") {
  KitRun run(R"(
testing.test("no endpoint", function()
  testing.raises(function() testing.provider() end,
    'The argument "endpoint" is required')
  testing.raises(function() testing.provider { region = "eu" } end, "endpoint")
end)
testing.test("deprecated arguments warn", function()
  local p = testing.provider { endpoint = "e", region = "eu" }
  equal(p.diagnostics[1].severity, "warning")
  equal(p.diagnostics[1].attribute, "region")
end)
)");
  CHECK_PASSED(run, 2);
}

TEST_CASE("a resource configuration without a required argument does not plan") {
  KitRun run(R"(
testing.test("plan", function()
  local note = testing.provider({ endpoint = "e" }):resource("test_note")
  local plan = note:plan { config = { text = "x" } }
  testing.has_error(plan, 'The argument "name" is required', "name")
  equal(plan.planned, nil)
  testing.has_error(note:create { text = "x" }, "Missing required argument", "name")
  -- In each block too.
  testing.has_error(note:plan { config = { name = "n", rule = { { port = 1 }, {} } } },
    'The argument "port" is required', "rule[1].port")
  testing.no_errors(note:plan { config = { name = "n", rule = { { port = 1 } } } })
end)
)");
  CHECK_PASSED(run, 1);
}

TEST_CASE("a listing gives its events, as terraform query asks for them") {
  KitRun run(R"(
local notes = testing.provider({ endpoint = "e" }):list_resource("test_note")
testing.test("events", function()
  local listed = notes:list { config = { prefix = "" }, limit = 2 }
  equal(#listed.events, 3)
  -- An element without an identity is only a warning, in its own event.
  equal(listed.events[1].identity, nil)
  testing.contains(listed.events[1].diagnostics[1].detail, "it has no identity")
  equal(listed.events[2], { identity = { name = "alpha" }, display_name = "Note alpha",
    diagnostics = {} })
  equal(listed.events[3].identity, { name = "beta" })
  equal(listed.events[3].object, nil)
  equal(#testing.errors(listed), 0)
  equal(listed.diagnostics[1].severity, "warning")
end)
testing.test("include_resource", function()
  local listed = notes:list { config = { prefix = "g" }, include_resource = true }
  equal(listed.events[2].object, { id = "gamma", name = "gamma", text = "third", rule = {} })
end)
testing.test("the filters are validated", function()
  testing.has_error(notes:list {}, 'The argument "prefix" is required', "prefix")
  testing.raises(function() notes:list { limt = 1 } end, 'not a key "limt"')
end)
)");
  CHECK_PASSED(run, 3);
}

TEST_CASE("an action plans, and is invoked with its progress collected") {
  KitRun run(R"(
local ping = testing.provider({ endpoint = "e" }):action("test_ping")
testing.test("plan", function()
  testing.no_errors(ping:plan { message = "hi" })
  testing.has_error(ping:plan { message = "" }, "message is empty")
  testing.has_error(ping:plan {}, 'The argument "message" is required', "message")
end)
testing.test("invoke", function()
  local invoked = ping:invoke { message = "hi" }
  testing.no_errors(invoked)
  equal(invoked.progress, { "to e", "said hi" })
  local failed = ping:invoke { message = "fail" }
  testing.has_error(failed, "it failed")
  equal(failed.progress, { "to e", "said fail" })
  -- A plan that fails invokes nothing.
  local refused = ping:invoke { message = "" }
  testing.has_error(refused, "message is empty")
  equal(refused.progress, {})
end)
)");
  CHECK_PASSED(run, 2);
}

TEST_CASE("a state store is configured, then writes, reads, lists, locks and deletes states") {
  KitRun run(R"(
local store = testing.provider({ endpoint = "e" }):state_store("test_memo")
testing.test("store", function()
  testing.has_error(store:configure {}, 'The argument "prefix" is required', "prefix")
  testing.has_error(store:states(), "test_memo is not configured")
  local configured = store:configure { prefix = "p/" }
  testing.no_errors(configured)
  equal(configured.chunk_size, 8)
  local state = '{"version":4,"serial":3,"lineage":"x"}'  -- many chunks of 8 bytes
  testing.no_errors(store:write("default", state))
  equal(store:read("default").state, state)
  equal(store:read("dev").state, nil)
  store:write("dev", "{}")
  equal(store:states().states, { "default", "dev" })
  local held = store:lock("default")
  testing.no_errors(held)
  testing.has_error(store:lock("default", "OperationTypePlan"), "locked by " .. held.lock_id)
  testing.has_error(store:unlock("default", "someone"), "not the holder")
  testing.no_errors(store:unlock("default", held.lock_id))
  testing.no_errors(store:delete("dev"))
  equal(store:states().states, { "default" })
end)
)");
  CHECK_PASSED(run, 1);
}

TEST_CASE("an import by identity reads the object it names") {
  KitRun run(R"(
testing.test("identity", function()
  local note = testing.provider({ endpoint = "e" }):resource("test_note")
  local imported = note:import { identity = { name = "beta" } }
  testing.no_errors(imported)
  equal(imported.state.text, "second")
  equal(imported.identity, { name = "beta" })
  equal(note:import("alpha").state.text, "first")
  testing.has_error(note:import { identity = {} }, "name")
  testing.raises(function() note:import {} end, "either an id or an identity")
end)
)");
  CHECK_PASSED(run, 1);
}

TEST_CASE("an imported object is compared with the applied one as a plan compares them") {
  // What the acceptance step's import verification asks the native half.
  KitRun run(R"(
local native = require("luaform_testing_native")
testing.test("equivalent", function()
  local applied = { id = "n", name = "n", host = "acc1.test", size = 3 }
  local a, i = native.equivalent("test_note", applied,
    { id = "n", name = "n", host = "acc1.test.", text = "", size = 3, rule = {} })
  equal(i, a)
  equal(a.host, "acc1.test")
  -- A real difference stays one.
  a, i = native.equivalent("test_note", applied,
    { id = "n", name = "n", host = "acc2.test", size = 0 })
  equal(i.host, "acc2.test")
  equal(i.size, 0)
  -- Another provider's type is not compared here.
  equal(select("#", native.equivalent("other_thing", {}, {})), 0)
end)
)");
  CHECK_PASSED(run, 1);
}
