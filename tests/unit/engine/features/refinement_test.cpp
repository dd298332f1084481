// Refinements of unknown values: declared on computed attributes, carried by plans, and held
// against what apply produces.
#include <doctest/doctest.h>

#include "host/engine/rules/plan_rules.h"
#include "host/engine/schema/schema_rules.h"
#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

TEST_CASE("broken_by says which promise a known value breaks") {
  Refinement r;
  r.not_null = true;
  r.prefix = "arn:";
  CHECK(r.broken_by(Value::string("arn:x")).empty());
  CHECK(r.broken_by(Value::string("urn:x")) == "it does not start with \"arn:\"");
  CHECK(r.broken_by(Value::null(Type::string())) == "it is null");

  Refinement n;
  n.min = Number::from_int(1024);
  n.max = Number::from_int(65535);
  CHECK(n.broken_by(Value::number(8080)).empty());
  CHECK(n.broken_by(Value::number(80)) == "it is less than 1024");
  CHECK(n.broken_by(Value::number(70000)) == "it is more than 65535");
  CHECK(n.broken_by(Value::null(Type::number())).empty());

  Refinement l;
  l.min_length = 1;
  CHECK(l.broken_by(Value::list(Type::string(), {})) == "it has fewer than 1 elements");
}

TEST_CASE("a plan makes a refined computed attribute a refined unknown") {
  Block block;
  Attribute arn = attribute("arn", Type::string(), false, false, true);
  arn.refine.not_null = true;
  block.attributes = {attribute("name", Type::string(), true, false, false), arn};
  const Type type = block.implied_type();
  const Value config =
      Value::object(type, {{"name", Value::string("a")}, {"arn", Value::null(Type::string())}});
  const Value planned = mark_computed_unknown(block, config, Value::null(type), config);
  const Value planned_arn = planned.get_attribute("arn");
  REQUIRE(planned_arn.is_unknown());
  REQUIRE(planned_arn.refinement() != nullptr);
  CHECK(planned_arn.refinement()->not_null);
}

TEST_CASE("apply holds the result to the plan's refinements") {
  auto logic = std::make_shared<ScriptedLogic>();
  Schema s = file_schema();
  for (auto& attr : s.block.attributes) {
    if (attr.name == "sha") attr.refine.prefix = "sha-";
  }
  logic->declared.resources["test_file"] = s;
  ProviderService service(logic);
  const Type type =
      service.get_provider_schema().schema->resources.at("test_file").block.implied_type();
  std::string sha;
  logic->callbacks[Operation::Create] = [&](ResourceData& d) {
    d.set_id("/a");
    return d.set("sha", Value::string(sha));
  };
  const Value config =
      Value::object(type, {{"path", Value::string("/a")}, {"content", Value::string("x")}});
  const PlanResponse plan =
      service.plan_resource_change(PlanRequest{"test_file", Value::null(type), config, config, {}});
  REQUIRE_FALSE(plan.diagnostics.has_errors());
  const Value planned = plan.planned_state;

  sha = "sha-123";
  CHECK_FALSE(
      service
          .apply_resource_change(ApplyRequest{"test_file", Value::null(type), planned, config, {}})
          .diagnostics.has_errors());
  sha = "md5-123";
  const ApplyResponse broken = service.apply_resource_change(
      ApplyRequest{"test_file", Value::null(type), planned, config, {}});
  REQUIRE(broken.diagnostics.has_errors());
  CHECK(broken.diagnostics.items()[0].summary ==
        "test_file: create set \"sha\" to a value its refine option rules out");
}

TEST_CASE("refinements must fit the attribute") {
  auto check = [](Attribute a) {
    Block block;
    block.attributes = {std::move(a)};
    Diagnostics diags;
    validate_block(block, "resource r", diags, BlockPlace::ResourceTop);
    return diags.has_errors() ? diags.items()[0].summary : std::string();
  };
  Attribute port = attribute("port", Type::number(), false, false, true);
  port.refine.min = Number::from_int(1);
  CHECK(check(port).empty());
  port.refine.prefix = "x";
  CHECK(check(port) == "resource r: attribute \"port\": refine: a prefix is for strings");
  Attribute set_by_user = attribute("name", Type::string(), false, true, false);
  set_by_user.refine.not_null = true;
  CHECK(check(set_by_user) ==
        "resource r: attribute \"name\": refine: only a computed value can be refined");
  Attribute crossed = attribute("n", Type::number(), false, false, true);
  crossed.refine.min = Number::from_int(5);
  crossed.refine.max = Number::from_int(1);
  CHECK(check(crossed) == "resource r: attribute \"n\": refine: min is more than max");
}
