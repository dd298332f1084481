#include "host/engine/rules/resource_data.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "host/engine/schema/schema_rules.h"
#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

Schema served_file_schema() {
  ProviderSchema p;
  p.resources["f"] = file_schema();
  return schema_as_served(p).resources.at("f");
}

}  // namespace

TEST_CASE("get prefers set values over the plan, the plan over the state") {
  Schema s = served_file_schema();
  Type t = s.block.implied_type();
  Value state = Value::object(t, {{"id", Value::string("1")}, {"content", Value::string("old")}});
  Value planned = state.with_attribute("content", Value::string("planned"));
  ResourceData d(s, state, planned, planned);
  CHECK(d.get("content") == Value::string("planned"));
  REQUIRE_FALSE(d.set("content", Value::string("set")).has_errors());
  CHECK(d.get("content") == Value::string("set"));
  CHECK(d.get_change("content").first == Value::string("old"));
}

TEST_CASE("get of an unknown planned value reads as null") {
  Schema s = served_file_schema();
  Type t = s.block.implied_type();
  Value planned = Value::object(t, {{"sha", Value::unknown(Type::string())}});
  ResourceData d(s, Value::null(t), planned, planned);
  CHECK(d.get("sha").is_null());
  CHECK(d.get("sha").type() == Type::string());
}

TEST_CASE("set with the wrong type is an error naming the attribute") {
  Schema s = served_file_schema();
  ResourceData d(s, Value::null(s.block.implied_type()), Value::null(s.block.implied_type()),
                 Value::null(s.block.implied_type()));
  Diagnostics diags = d.set("content", Value::number(3));
  REQUIRE(diags.has_errors());
  CHECK(diags.items()[0].path == AttributePath{AttributeName{"content"}});
  CHECK(d.set("nope", Value::string("x")).has_errors());
}

TEST_CASE("dotted addresses reach into collections") {
  Schema s;
  s.block.attributes.push_back(attribute("tags", Type::map(Type::string()), false, true, false));
  s.block.attributes.push_back(attribute("ports", Type::list(Type::number()), false, true, false));
  Type t = s.block.implied_type();
  Value config = Value::object(
      t, {{"tags", Value::map(Type::string(), {{"env", Value::string("prod")}})},
          {"ports", Value::list(Type::number(), {Value::number(80), Value::number(443)})}});
  ResourceData d(s, Value::null(t), config, config);
  CHECK(d.get("tags.env") == Value::string("prod"));
  CHECK(d.get("ports.1") == Value::number(443));
  CHECK(d.get("ports.5").is_null());
  CHECK(d.type_of("ports.0") == Type::number());
}

TEST_CASE("result is null when the id is empty") {
  Schema s = served_file_schema();
  Type t = s.block.implied_type();
  Value state = Value::object(t, {{"id", Value::string("1")}});
  ResourceData d(s, state, Value::null(t), Value::null(t));
  CHECK_FALSE(d.result().is_null());
  d.set_id("");
  CHECK(d.result().is_null());
}

TEST_CASE("the data's secrets: its given values' sensitive parts and what the script set") {
  ProviderSchema p;
  Schema file = file_schema();
  for (Attribute& a : file.block.attributes) a.sensitive = a.name == "content";
  p.resources["f"] = file;
  const Schema s = schema_as_served(p).resources.at("f");
  const Type t = s.block.implied_type();
  const Value state = Value::object(t, {{"id", Value::string("1")},
                                        {"path", Value::string("/plain")},
                                        {"content", Value::string("stored-secret")}});
  const Value planned = state.with_attribute("content", Value::string("planned-secret"));
  ResourceData d(s, state, planned, planned);
  REQUIRE_FALSE(d.set("content", Value::string("set-secret")).has_errors());
  // Not declared sensitive, but marked so by the script.
  REQUIRE_FALSE(d.set("mode", Value::string("marked-secret").mark_sensitive()).has_errors());
  REQUIRE_FALSE(d.set("sha", Value::string("plain-sha")).has_errors());
  const std::vector<std::string> found = d.sensitive_texts();
  const auto has = [&](const std::string& text) {
    return std::find(found.begin(), found.end(), text) != found.end();
  };
  CHECK(has("stored-secret"));
  CHECK(has("planned-secret"));
  CHECK(has("set-secret"));
  CHECK(has("marked-secret"));
  CHECK_FALSE(has("/plain"));
  CHECK_FALSE(has("plain-sha"));
}
