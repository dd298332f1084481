// The luaform_json module scripts use (tf.json); push_json for upgrade functions is covered by
// the upgrade tests in script_state_test.cpp.
#include "host/lua/json_conversion.h"

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
