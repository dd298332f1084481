#include "host/engine/nested_elements.h"

#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// A set block of { port (required), uid (computed) }.
NestedBlock port_block() {
  NestedBlock nb;
  nb.type_name = "rule";
  nb.nesting = NestingMode::Set;
  nb.block.attributes = {attribute("port", Type::number(), true, false, false),
                         attribute("uid", Type::string(), false, false, true)};
  return nb;
}

Value port(const NestedBlock& nb, int64_t p, const char* uid = nullptr) {
  Value::Object attrs{{"port", Value::number(p)}};
  if (uid) attrs["uid"] = Value::string(uid);
  return Value::object(nb.block.implied_type(), std::move(attrs));
}

}  // namespace

TEST_CASE("set elements are paired with config elements by their configured attributes") {
  NestedBlock nb = port_block();
  const Type t = nb.block.implied_type();
  Value v = Value::set(t, {port(nb, 80, "a"), port(nb, 443, "b")});
  Value prior = Value::set(t, {port(nb, 80, "a")});
  Value config = Value::set(t, {port(nb, 443), port(nb, 80)});
  std::vector<std::string> seen;
  map_nested_elements(nb, v, prior, config, [&](const Value& e, const Value& p, const Value& c) {
    const std::string name = e.get_attribute("port").to_display_string();
    seen.push_back(name + (p.is_null() ? " new" : " known") +
                   (c.get_attribute("port") == e.get_attribute("port") ? " configured" : ""));
    return e;
  });
  CHECK(seen == std::vector<std::string>{"80 known configured", "443 new configured"});
}

TEST_CASE("computed attributes do not count when comparing configured values") {
  NestedBlock nb = port_block();
  CHECK(same_configured_values(nb.block, port(nb, 80, "a"), port(nb, 80)));
  CHECK_FALSE(same_configured_values(nb.block, port(nb, 80, "a"), port(nb, 81, "a")));
}

TEST_CASE("null and unknown nested values are left as they are") {
  NestedBlock nb = port_block();
  const Type t = nb.implied_type();
  auto fail = [](const Value&, const Value&, const Value&) -> Value {
    FAIL("the rule must not run");
    return Value();
  };
  CHECK(map_nested_elements(nb, Value::null(t), Value(), Value(), fail).is_null());
  CHECK(map_nested_elements(nb, Value::unknown(t), Value(), Value(), fail).is_unknown());
}
