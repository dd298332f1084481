#include "host/engine/schema/nested_elements.h"

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

TEST_CASE("every element of a large set finds its own config element and prior element") {
  // Every planned element differs from its config element (the computed uid is filled in), so
  // each one is paired through the configured attributes, not by equality.
  NestedBlock nb = port_block();
  const Type t = nb.block.implied_type();
  Value::List planned;
  Value::List configured;
  Value::List before;
  for (int64_t p = 0; p < 500; ++p) {
    const std::string uid = "u" + std::to_string(p);
    planned.push_back(port(nb, p, uid.c_str()));
    configured.push_back(port(nb, p));
    if (p % 2 == 0) before.push_back(port(nb, p, uid.c_str()));
  }
  size_t visited = 0;
  map_nested_elements(nb, Value::set(t, planned), Value::set(t, before), Value::set(t, configured),
                      [&](const Value& e, const Value& p, const Value& c) {
                        ++visited;
                        CHECK(c.get_attribute("port") == e.get_attribute("port"));
                        CHECK(c.get_attribute("uid").is_null());
                        const bool even =
                            e.get_attribute("port").to_display_string().back() % 2 == 0;
                        CHECK(p.is_null() == !even);
                        if (even) CHECK(p == e);
                        return e;
                      });
  CHECK(visited == 500);
}

TEST_CASE("a computed attribute the config leaves null may hold anything; a set one must match") {
  NestedBlock nb = port_block();
  CHECK(from_config(nb.block, port(nb, 80, "a"), port(nb, 80)));
  CHECK(from_config(nb.block, port(nb, 80, "a"), port(nb, 80, "a")));
  CHECK_FALSE(from_config(nb.block, port(nb, 80, "a"), port(nb, 80, "b")));
  CHECK_FALSE(from_config(nb.block, port(nb, 80, "a"), port(nb, 81)));
}

TEST_CASE("set elements with defaults pair with the config element that produced them") {
  // rule { port = 443 } and rule { protocol = "udp" }, both attributes optional with defaults
  // (served as optional+computed): each planned element keeps its own config element.
  NestedBlock nb;
  nb.type_name = "rule";
  nb.nesting = NestingMode::Set;
  nb.block.attributes = {attribute("port", Type::number(), false, true, true),
                         attribute("protocol", Type::string(), false, true, true)};
  const Type t = nb.block.implied_type();
  Value a = Value::object(t, {{"port", Value::number(443)}});
  Value b = Value::object(t, {{"protocol", Value::string("udp")}});
  Value config = Value::set(t, {a, b});
  std::vector<std::string> pairs;
  map_nested_elements(nb, config, Value(), config,
                      [&](const Value& e, const Value&, const Value& c) {
                        CHECK(e == c);
                        pairs.push_back(c.to_display_string());
                        return e;
                      });
  CHECK(pairs.size() == 2);
  CHECK(pairs[0] != pairs[1]);
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
