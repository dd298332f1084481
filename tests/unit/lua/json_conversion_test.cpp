// The luaform_json module scripts use (tf.json); push_json for upgrade functions is covered by
// the upgrade tests in script_state_test.cpp.
#include "host/lua/core/json_conversion.h"

#include <doctest/doctest.h>

#include "provider_dir.h"

using namespace luaform::lua::testing;

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
            .find("nested more than 150 levels") != std::string::npos);
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
