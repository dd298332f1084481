// What a script can and cannot reach (documented in lua-sdk/README.md, "The sandbox").
#include "host/lua/core/sandbox.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "host/lua/core/guarded.h"
#include "host/lua/core/json_conversion.h"
#include "host/lua/modules/encoding_module.h"

#include "limited_run.h"
#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;

TEST_CASE("dangerous functions are absent") {
  CHECK(evaluate("os.execute") == "nil");
  CHECK(evaluate("os.exit") == "nil");
  CHECK(evaluate("io.popen") == "nil");
  CHECK(evaluate("io.read") == "nil");
  CHECK(evaluate("io.write") == "nil");
  CHECK(evaluate("debug") == "nil");
  CHECK(evaluate("dofile") == "nil");
  CHECK(evaluate("loadfile") == "nil");
  CHECK(evaluate("package.loadlib") == "nil");
  CHECK(evaluate("require('os').execute") == "nil");
}

TEST_CASE("the libraries a provider needs are there") {
  CHECK(evaluate(
            "string.format('%d', 3) .. table.concat({'a'}) .. math.floor(2.5) .. utf8.char(72)") ==
        "3a2H");
  CHECK(evaluate("type(os.time()) .. type(os.date('%Y')) .. type(os.clock())") ==
        "numberstringnumber");
  CHECK(evaluate("type(os.getenv('PATH'))") == "string");
  CHECK(evaluate("type(os.remove) .. type(os.rename) .. type(io.open) .. type(io.lines)") ==
        "functionfunctionfunctionfunction");
}

TEST_CASE("files can be written, read back, renamed and removed") {
  ProviderDir scratch;
  const std::string base = scratch.path().string();
  CHECK(evaluate("(function() local f = assert(io.open('" + base +
                 "/a', 'w')) f:write('hi') f:close() assert(os.rename('" + base + "/a', '" + base +
                 "/b')) local g = assert(io.open('" + base +
                 "/b')) local s = g:read('a') g:close() assert(os.remove('" + base +
                 "/b')) return s end)()") == "hi");
}

TEST_CASE("io.lines needs a file name: it cannot read the plugin's stdin") {
  CHECK(evaluate("io.lines()").find("bad argument #1 to 'lines'") != std::string::npos);
}

TEST_CASE("the doors into the host process and the machine's memory are closed") {
  ProviderDir scratch;
  const std::string link = (scratch.path() / "innocent").string();
  std::filesystem::create_symlink("/proc/self/mem", link);
  for (const std::string& name :
       {std::string("/proc/self/mem"), "/proc/" + std::to_string(getpid()) + "/maps",
        std::string("/proc/thread-self/mem"), std::string("/proc/1/environ"),
        std::string("/dev/mem"), link}) {
    CAPTURE(name);
    CHECK(evaluate("io.open('" + name + "', 'r+b')").find("io.open: '" + name + "' is closed") !=
          std::string::npos);
    CHECK(evaluate("io.lines('" + name + "')").find("io.lines: '" + name + "' is closed") !=
          std::string::npos);
  }
  // The rest of /proc describes the machine, not a process: still readable.
  CHECK(evaluate("(function() local f = assert(io.open('/proc/cpuinfo')) f:close() "
                 "return 'ok' end)()") == "ok");
}

TEST_CASE("load accepts source text but not precompiled chunks") {
  CHECK(evaluate("load('return 1 + 1')()") == "2");
  CHECK(evaluate("select(2, load(string.dump(function() return 1 end)))")
            .find("attempt to load a binary chunk") != std::string::npos);
}

namespace {

// Runs `code`, named hog.lua, in a state limited to `limits`: its error message, or "" when it
// completed.
std::string run_limited(lua_State* L, const std::string& code) {
  return lua::testing::run_to_end(L, code, "=hog.lua").error;
}

}  // namespace

TEST_CASE("a script holding more memory than the limit ends with an error at its line") {
  lua::RunLimits limits;
  limits.memory_limit = size_t{8} << 20;
  lua::StatePtr state = lua::new_sandboxed_state(&limits);
  const std::string hog = "local t = {}\nfor i = 1, 1e9 do t[i] = ('x'):rep(64) .. i end\n";
  const std::string message = run_limited(state.get(), hog);
  CHECK(message.find("hog.lua:2: the script holds more than 8 MiB of memory") != std::string::npos);
  CHECK(limits.memory_used <= limits.memory_limit + limits.memory_limit / 4);

  // One allocation beyond the limit is refused outright.
  CHECK(
      run_limited(state.get(), "local s = ('x'):rep(64 * 1024 * 1024)").find("not enough memory") !=
      std::string::npos);

  // The garbage of the failed runs is no reason to fail the next one.
  CHECK(run_limited(state.get(), "local t = {} for i = 1, 1000 do t[i] = i end") == "");
  lua_gc(state.get(), LUA_GCCOLLECT);
  CHECK(limits.memory_used < limits.memory_limit / 2);
}

TEST_CASE("what native helpers build for a script counts against its memory limit") {
  lua::RunLimits limits;
  limits.memory_limit = size_t{64} << 20;
  lua::StatePtr state = lua::new_sandboxed_state(&limits);
  lua_State* L = state.get();
  luaL_requiref(L, "json", lua::open_json_module, 1);
  luaL_requiref(L, "encoding", lua::open_encoding_module, 1);
  lua_pop(L, 2);
  // 160 references to one 8 MiB string: 1.3 GB of JSON text, once built in the host's memory.
  const std::string encoded =
      run_limited(L,
                  "local s = ('x'):rep(8 * 1024 * 1024)\nlocal t = {}\n"
                  "for i = 1, 160 do t[i] = s end\nreturn json.encode(t)\n");
  CHECK(encoded.find("hog.lua:4: json.encode would hold more than the") != std::string::npos);
  CHECK(encoded.find("under its memory limit of 64 MiB (LUAFORM_MEMORY_LIMIT_MB") !=
        std::string::npos);
  // A document many times larger than its text.
  const std::string decoded =
      run_limited(L, "return json.decode('[' .. ('{\"a\":[1,2,3]},'):rep(1500000) .. '1]')");
  CHECK(decoded.find("json.decode would hold more than the") != std::string::npos);
  CHECK(
      run_limited(L, "collectgarbage() return encoding.base64_encode(('x'):rep(24 * 1024 * 1024))")
          .find("base64.encode would hold more than the") != std::string::npos);
  // Within the limit, all three work as before.
  CHECK(run_limited(L,
                    "assert(#json.encode({('x'):rep(1024 * 1024)}) == 1024 * 1024 + 4)\n"
                    "assert(#json.decode('[' .. ('1,'):rep(100000) .. '1]') == 100001)\n"
                    "assert(encoding.base64_encode('hi') == 'aGk=')") == "");
}

TEST_CASE("the memory limit comes from LUAFORM_MEMORY_LIMIT_MB, 1 GiB by default") {
  // The variable is read once per process; the test runs without it.
  if (std::getenv("LUAFORM_MEMORY_LIMIT_MB") == nullptr) {
    CHECK(lua::RunLimits::default_memory_limit() == size_t{1024} << 20);
  }
  CHECK(lua::RunLimits{}.memory_used == 0);
}

TEST_CASE("a global assignment is an error at its line; the shared tables stay as they are") {
  // A forgotten local: `type = ...` once replaced the function every script and the SDK call.
  const std::string forgotten = evaluate("(function() type = 'disk' end)()");
  INFO(forgotten);
  CHECK(forgotten.find("resource_probe.lua:6:") != std::string::npos);
  CHECK(forgotten.find("assignment to undeclared global 'type': declare it local") !=
        std::string::npos);
  // Nor through _G, rawset or the proxy's metatable.
  CHECK(evaluate("(function() _G.x = 1 end)()").find("undeclared global 'x'") != std::string::npos);
  CHECK(evaluate("rawset(_G, 'x', 1)").find("undeclared global 'x'") != std::string::npos);
  CHECK(evaluate("setmetatable(_G, nil)").find("protected metatable") != std::string::npos);
  CHECK(evaluate("getmetatable(_G)") == "the globals are sealed");
  // Strings' metatable is out of reach; string methods work as ever.
  CHECK(evaluate("getmetatable('')") == "string");
  CHECK(evaluate("('abc'):upper() .. #('x'):rep(3)") == "ABC3");
  // Reading works: undeclared names are nil, pairs sees the real globals, rawset works elsewhere.
  CHECK(evaluate("undeclared_name") == "nil");
  CHECK(evaluate("(function() local n = 0 for k in pairs(_G) do if k == 'string' then n = 1 end "
                 "end return n end)()") == "1");
  CHECK(evaluate("rawset({}, 'k', 'v').k") == "v");
  CHECK(evaluate("_G.string == string and _G == _ENV") == "true");
}

TEST_CASE("one script's forgotten local no longer breaks another's SDK validators") {
  ProviderDir dir;
  dir.write("resource_careless.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { kind = tf.string { optional = true } },
  create = function(d)
    type = d:get("kind")
    d:set_id("x")
  end,
  read = function() end, delete = function() end,
})");
  dir.write("resource_careful.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { size = tf.number { optional = true, validate = tf.v.at_least(1) } },
  create = function(d) d:set_id("y") end,
  read = function() end, delete = function() end,
})");
  auto logic = dir.load();
  REQUIRE(logic->load_diagnostics().empty());
  Instance careless(*logic, "test_careless");
  engine::ResourceData d(careless.schema, careless.null(),
                         careless.object({{"kind", engine::Value::string("disk")}}),
                         careless.object({{"kind", engine::Value::string("disk")}}));
  const auto failed = logic->open_session()->call(engine::Operation::Create, "test_careless", d);
  REQUIRE(failed.has_errors());
  CHECK(as_raised(failed.items()[0])
            .find("resource_careless.lua:5: assignment to undeclared "
                  "global 'type'") != std::string::npos);
  // The other resource's validator (which calls type()) runs on the same state as before.
  const auto checked = logic->open_session()->validate_value(
      engine::SchemaOwner::Resource, "test_careful", {engine::AttributeName{"size"}},
      engine::Value::number(0), {engine::Value(), engine::Value(), engine::Value()});
  REQUIRE(checked.has_errors());
  CHECK(checked.items()[0].detail.find("attempt to call") == std::string::npos);
}

TEST_CASE("the plugin's standard streams and terminal are closed to scripts") {
  for (const std::string name :
       {"/dev/stdin", "/dev/fd/0", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/../fd/0"}) {
    CAPTURE(name);
    CHECK(evaluate("io.open('" + name + "')").find("io.open: '" + name + "' is closed") !=
          std::string::npos);
    CHECK(evaluate("io.lines('" + name + "')").find("io.lines: '" + name + "' is closed") !=
          std::string::npos);
  }
  CHECK(
      evaluate("(function() local f = assert(io.open('/dev/null')) f:close() return 'ok' end)()") ==
      "ok");
}

namespace {

// A provider whose resource runs the Lua `code` of its configuration in create: two calls on
// the one state the pool holds show what the first left for the second.
struct Runner {
  ProviderDir dir;
  std::shared_ptr<engine::ProviderLogic> logic;

  Runner() {
    dir.write("resource_run.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { code = tf.string { required = true }, out = tf.string { computed = true } },
  create = function(d)
    d:set_id("run")
    d:set("out", tostring(assert(load(d:get("code"), "=code.lua"))()))
  end,
  read = function() end, delete = function() end,
})");
    logic = dir.load();
    REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  }

  // What the code returned, or "error: " and what it raised.
  std::string run(const std::string& code) {
    Instance i(*logic, "test_run");
    engine::ResourceData d(i.schema, i.null(), i.object({{"code", engine::Value::string(code)}}),
                           i.null());
    auto diags = logic->open_session()->call(engine::Operation::Create, "test_run", d);
    if (diags.has_errors()) return "error: " + as_raised(diags.items()[0]);
    return d.get("out").as_string();
  }
};

}  // namespace

TEST_CASE("a call cannot change the libraries the calls after it run") {
  Runner r;
  // Each write is an error at its line naming what it tried.
  for (const char* code :
       {"string.format = nil", "table.insert = print", "math.pi = 3", "os.time = nil",
        "io.open = nil", "coroutine.wrap = nil", "utf8.char = nil", "string.custom = 1",
        "package.path = ''", "package.loaded.luaform = {}", "package.preload.x = print",
        "package.searchers[1] = nil", "require('luaform').string = nil",
        "require('luaform').v.one_of = nil", "require('luaform').http.x = 1",
        "require('luaform_json').encode = nil", "require('luaform').unknown.x = 1",
        "require('luaform').string.name = 'number'",
        "table.insert(require('luaform_validators'), 1)"}) {
    CAPTURE(code);
    const std::string refused = r.run(code);
    CHECK_MESSAGE(refused.find("error: code.lua:1: cannot set '") == 0, refused);
    CHECK(refused.find("read-only") != std::string::npos);
  }
  for (const char* code : {"rawset(string, 'format', nil)", "rawset(require('luaform'), 'x', 1)",
                           "rawset(package.loaded, 'luaform', {})"}) {
    CAPTURE(code);
    CHECK(r.run(code).find("rawset: this table is read-only") != std::string::npos);
  }
  // pairs(_G) and pairs(string) iterate without handing out the tables behind them.
  CHECK(r.run("local _, s = pairs(_G) return tostring(s == _G)") == "true");
  CHECK(r.run("local _, s = pairs(_G) s.string = 1").find("undeclared global 'string'") !=
        std::string::npos);
  CHECK(r.run("local n = 0 for k, v in pairs(string) do n = n + 1 end return n") ==
        r.run("return 17"));
  CHECK(r.run("local _, s = pairs(string) s.format = nil").find("cannot set 'format'") !=
        std::string::npos);
  // The later calls see the libraries as they were.
  CHECK(
      r.run("return string.format('%d-%s', 4, #table) .. type(math.pi) .. "
            "type(require('luaform').string) .. type(require('luaform').v.one_of) .. "
            "tostring(rawequal(require('luaform').unknown, require('luaform_values').unknown))") ==
      "4-0numbertablefunctiontrue");
  // Reading works as ever: ipairs, #, the SDK's types and methods on strings.
  CHECK(r.run("return #package.searchers .. (' x'):upper() .. tostring(package.loaded.luaform ~= "
              "nil)") == "2 Xtrue");
}

TEST_CASE("the metatables the host and Lua's libraries hand out are sealed") {
  Runner r;
  const std::string file =
      (std::filesystem::temp_directory_path() / "luaform-sealed-file").string();
  std::ofstream(file) << "x";
  // A finalizer put into one of them used to run with the limits off, forever.
  CHECK(r.run("return getmetatable(io.open('" + file + "'))") == "FILE*");
  CHECK(r.run("return getmetatable(require('luaform').json.array())") == "json array");
  CHECK(r.run("return getmetatable(require('luaform').unknown)") == "tf.unknown");
  CHECK(r.run("return getmetatable(require('luaform').http.client {})") == "luaform.http.client");
  CHECK(r.run("return getmetatable(require('luaform').string)") == "luaform.type");
  CHECK(r.run("return getmetatable(require('luaform').list(require('luaform').string))") ==
        "luaform.type");
  CHECK(r.run("return getmetatable(require('luaform').retryable('x'))") == "luaform.retryable");
  // What they do still works.
  CHECK(r.run("local f = io.open('" + file + "') local s = f:read('a') f:close() return s") == "x");
  CHECK(r.run("return require('luaform').json.encode(require('luaform').json.array())") == "[]");
  CHECK(r.run("return tostring(require('luaform').unknown)") == "(known after apply)");
  std::filesystem::remove(file);
}
