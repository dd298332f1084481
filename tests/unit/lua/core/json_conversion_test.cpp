// The luaform_json module scripts use (tf.json); push_json for upgrade functions is covered by
// the upgrade tests in script_state_test.cpp.
#include "host/lua/core/json_conversion.h"

#include <doctest/doctest.h>

#include <string>

#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"
#include "provider_dir.h"
#include "small_stack.h"

using namespace luaform;
using namespace luaform::lua::testing;

namespace {

// Runs `code` in a fresh sandboxed state holding at most `limit` bytes, with the JSON module
// as the global `json`; the error it raised, or "" when it ran to the end.
std::string run_json(const std::string& code, size_t limit = size_t{256} << 20) {
  lua::RunLimits limits;
  limits.memory_limit = limit;
  lua::StatePtr state = lua::new_sandboxed_state(&limits);
  auto failure = lua::protected_run(state.get(), [&](lua_State* L) {
    luaL_requiref(L, "json", lua::open_json_module, 1);
    lua_pop(L, 1);
    if (luaL_loadbufferx(L, code.data(), code.size(), "=probe.lua", "t") != LUA_OK) lua_error(L);
    lua_call(L, 0, 0);
  });
  return failure.value_or("");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("json.decode gives tables, keeps null apart from absent, and says where text is bad") {
  CHECK(evaluate("tf.json.decode('{\"a\": [1, 2.5, \"x\", true]}').a[3]") == "x");
  CHECK(evaluate("tf.json.decode('{\"a\": [1, 2.5]}').a[2]") == "2.5");
  CHECK(evaluate("tf.json.decode('{\"a\": null}').a == tf.json.null") == "true");
  CHECK(evaluate("tf.json.decode('{\"a\": null}').b == nil") == "true");
  CHECK(evaluate("tf.json.decode('[null, 1]')[1] == tf.json.null") == "true");
  CHECK(evaluate("require('luaform_json') == tf.json") == "true");
  const std::string bad = evaluate("tf.json.decode('{\"a\": }')");
  CHECK_MESSAGE(bad.find("resource_probe.lua:6: json.decode: not valid JSON") != std::string::npos,
                bad);
  CHECK_MESSAGE(bad.find("column 7") != std::string::npos, bad);
  CHECK(evaluate("tf.json.decode(string.rep('[', 1000) .. string.rep(']', 1000))")
            .find("json.decode: the document nests more than 150 levels deep") !=
        std::string::npos);
}

TEST_CASE("json.equivalent ignores key order, spacing and number spelling, nothing else") {
  CHECK(
      evaluate("tf.json.equivalent('{\"a\":1,\"b\":[2,3]}', ' { \"b\" : [2, 3], \"a\": 1.0 }')") ==
      "true");
  CHECK(evaluate("tf.json.equivalent('{\"b\":[2,3]}', '{\"b\":[3,2]}')") == "false");
  CHECK(evaluate("tf.json.equivalent('{\"a\":null}', '{}')") == "false");
  CHECK(evaluate("tf.json.equivalent('not json', 'not json')") == "false");
}

TEST_CASE("json.encode sorts keys, tells arrays from objects, and names the path it cannot hold") {
  CHECK(evaluate("tf.json.encode({b = 1, a = {3, 'x', true}, c = tf.json.null})") ==
        R"({"a":[3,"x",true],"b":1,"c":null})");
  CHECK(evaluate("tf.json.encode({})") == "{}");
  CHECK(evaluate("tf.json.encode(tf.json.array())") == "[]");
  CHECK(evaluate("tf.json.encode(tf.json.decode('{\"l\": [], \"o\": {}}'))") ==
        R"({"l":[],"o":{}})");
  CHECK(evaluate("tf.json.encode(0.5) .. ' ' .. tf.json.encode(9007199254740993)") ==
        "0.5 9007199254740993");
  CHECK(evaluate("tf.json.encode('caf\\u{e9} \"q\"\\n')") == R"("café \"q\"\n")");
  // A key holding a zero byte keeps it: it was cut there, and the object lost a member's name.
  CHECK(evaluate(R"(tf.json.encode(tf.json.decode('{"a\\u0000b": 1, "a": 2}')))") ==
        R"({"a":2,"a\u0000b":1})");
  const std::string text = R"({"a":[1,{"b":null}],"s":"x"})";
  CHECK(evaluate("tf.json.encode(tf.json.decode('" + text + "'))") == text);

  CHECK(evaluate("tf.json.encode({a = {1, nil, 3}})").find("$.a is a list with holes") !=
        std::string::npos);
  CHECK(evaluate("tf.json.encode({a = {1, b = 2}})")
            .find("$.a mixes list positions and string keys") != std::string::npos);
  CHECK(evaluate("tf.json.encode({x = {f = print}})").find("$.x.f is a function") !=
        std::string::npos);
  CHECK(evaluate("tf.json.encode({0/0})").find("$[1] is NaN") != std::string::npos);
  CHECK(evaluate("tf.json.encode({[2.5] = 1})").find("neither a string nor a list position") !=
        std::string::npos);
  CHECK(evaluate("(function() local t = {} t.self = t return tf.json.encode(t) end)()")
            .find("refers to itself") != std::string::npos);
  CHECK(evaluate("tf.json.encode('\\xff')").find("not valid UTF-8") != std::string::npos);
}

// Found by review (issue 37): equivalent parsed and compared documents of any depth by
// recursion, so a 200,000-deep document of 400 KB in a configuration value ended the provider
// (tf.suppress.equivalent_json); decode refused it only after building it.
TEST_CASE("every JSON helper refuses a document nested 200,000 deep, naming itself and the bound") {
  const std::string deep =
      "local deep = ('['):rep(200000) .. (']'):rep(200000)\n"
      "local deep_object = ('{\"a\":'):rep(200000) .. '1' .. ('}'):rep(200000)\n";
  // Either side, whatever the other is (fuzz_json_helpers found the answer depended on the
  // order when the other was not JSON).
  for (const char* call : {"json.equivalent(deep, deep)", "json.equivalent('[]', deep)",
                           "json.equivalent(deep, 'not json')", "json.equivalent('{', deep)",
                           "json.equivalent(deep_object, deep_object)"}) {
    const std::string error = run_json(deep + "return " + call);
    CHECK_MESSAGE(contains(error,
                           "probe.lua:3: json.equivalent: the document nests more than "
                           "150 levels deep, the most JSON helpers take"),
                  call, " -> ", error);
  }
  for (const char* call : {"json.decode(deep)", "json.decode(deep_object)"}) {
    const std::string error = run_json(deep + "return " + call);
    CHECK_MESSAGE(contains(error,
                           "probe.lua:3: json.decode: the document nests more than 150 "
                           "levels deep"),
                  call, " -> ", error);
  }
  CHECK(contains(run_json("local t = {} for i = 1, 200000 do t = { t } end return json.encode(t)"),
                 "json.encode: $[1][1]"));
  // Through the SDK's suppressor, as a plan calls it: an error, not the end of the provider.
  CHECK(contains(evaluate("tf.suppress.equivalent_json('v', ('['):rep(200000) .. "
                          "(']'):rep(200000), '[]')"),
                 "json.equivalent: the document nests more than 150 levels deep"));
  // At the bound, all of them work; text that is not JSON is still just not equivalent.
  CHECK(run_json("local at = ('['):rep(150) .. (']'):rep(150)\n"
                 "assert(json.equivalent(at, ' ' .. at))\n"
                 "assert(json.encode(json.decode(at)) == at)\n"
                 "assert(not json.equivalent(at, ('['):rep(150)))\n"
                 "assert(not json.equivalent('[', at))\n") == "");
}

// Found by review (issue 37): one json.equivalent of 14 MB took the host from 88 MB to 670 MB
// under a 64 MiB limit; the documents it parses were not counted.
TEST_CASE("json.equivalent counts both documents against the memory limit") {
  const size_t limit = size_t{64} << 20;
  const std::string big = "local big = '[' .. ('{},'):rep(4600000) .. '{}]'\n";  // 14 MB
  const std::string error = run_json(big + "return json.equivalent(big, big)", limit);
  CHECK_MESSAGE(contains(error, "probe.lua:2: json.equivalent would hold more than the"), error);
  CHECK(contains(error, "under its memory limit of 64 MiB"));
  // Each document counts: one that fits alone does not fit twice.
  const std::string half = "local half = '[' .. ('{},'):rep(300000) .. '{}]'\n";
  CHECK(run_json(half + "assert(not json.equivalent(half, '[]'))", limit) == "");
  CHECK(contains(run_json(half + "return json.equivalent(half, half)", limit),
                 "json.equivalent would hold more than the"));
  CHECK(run_json("local doc = '[' .. ('{\"a\":1},'):rep(50000) .. '{}]'\n"
                 "assert(json.equivalent(doc, doc))",
                 limit) == "");
}

// Release hosts run scripts on threads of 128 KiB (musl's default); a helper at its depth
// bound must leave most of that to gRPC, the engine and Lua. Each, at its bound, on a thread
// with a quarter of it (scaled in unoptimized and sanitizer builds: small_stack.h). Before,
// decode and encode recursed at about 300 bytes a level, 45 KiB at the bound (g++ -O2).
TEST_CASE("at the depth bound, every JSON helper fits in a quarter of a musl thread's stack") {
  std::string error = "did not run";
  run_on_small_stack(kQuarterOfMuslStack, [&] {
    error = run_json(
        "local at = ('[{\"a\":'):rep(75) .. '1' .. ('}]'):rep(75)\n"
        "assert(json.equivalent(at, at))\n"
        "local t = json.decode(at)\n"
        "assert(json.encode(t) == at)\n"
        "local deep = ('['):rep(151) .. (']'):rep(151)\n"
        "assert(not pcall(json.decode, deep))\n"
        "assert(not pcall(json.equivalent, deep, deep))\n");
  });
  CHECK(error == "");
}
