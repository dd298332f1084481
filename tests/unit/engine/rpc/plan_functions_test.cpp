// Plan functions (plan_with_functions): each attribute that has one is planned by its script
// in the schema's order, inside nested blocks and nested attributes element by element (paired
// with the prior and configured element at the same index or key), never changing what the
// configuration sets; an error leaves the plan as it was.
#include "host/engine/rpc/plan_functions.h"

#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// test_file with plan functions on `sha` (computed) and `mode` (optional and computed).
struct PlanFunctionFixture : ServiceFixture {
  Type type;

  PlanFunctionFixture() {
    Schema s = file_schema();
    for (auto& attr : s.block.attributes) {
      if (attr.name == "sha" || attr.name == "mode") attr.has_plan_function = true;
    }
    logic->declared.resources["test_file"] = s;
    serve();
    REQUIRE_FALSE(service->get_provider_schema().diagnostics.has_errors());
    type = service->get_provider_schema().schema->resources.at("test_file").block.implied_type();
  }
  // A new object as the configuration proposes it: the computed values not known yet.
  Value proposed_new() const {
    return Value::object(type, {{"path", Value::string("/a")}, {"content", Value::string("x")}});
  }
  PlanResponse plan(const Value& prior, const Value& proposed) const {
    const Value config = proposed.with_attribute("id", Value::null(Type::string()))
                             .with_attribute("sha", Value::null(Type::string()))
                             .with_attribute("mode", Value::null(Type::string()));
    return service->plan_resource_change(PlanRequest{"test_file", prior, proposed, config, {}});
  }
};

}  // namespace

TEST_CASE("a plan function plans a computed value, but never changes a configured one") {
  PlanFunctionFixture f;
  f.logic->planners["mode"] = [](const Value&, const Value& config, const Value&) {
    return std::optional<Value>(Value::string(config.get_attribute("path").as_string() + "!"));
  };
  f.logic->planners["sha"] = [](const Value&, const Value&, const Value&) {
    return std::optional<Value>();  // keeps what the plan had
  };
  const Value created = f.proposed_new();
  const PlanResponse resp = f.plan(Value::null(f.type), created);
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  const Value planned = resp.planned_state;
  CHECK(planned.get_attribute("mode") == Value::string("/a!"));
  CHECK(planned.get_attribute("sha").is_unknown());

  // mode is optional+computed: once the configuration sets it, it is the user's.
  const Value configured = created.with_attribute("mode", Value::string("0600"));
  const PlanResponse refused = f.service->plan_resource_change(
      PlanRequest{"test_file", Value::null(f.type), configured, configured, {}});
  REQUIRE(refused.diagnostics.has_errors());
  CHECK(refused.diagnostics.items()[0].summary ==
        "test_file: plan of \"mode\" changed a configured value");
}

TEST_CASE("plan functions run in the schema's order, each seeing what the earlier ones planned") {
  PlanFunctionFixture f;
  f.logic->planners["sha"] = [](const Value&, const Value&, const Value&) {
    return std::optional<Value>(Value::string("f00d"));
  };
  // "mode" comes after "sha" in file_schema: the object it is given holds the sha just planned.
  f.logic->planners["mode"] = [](const Value&, const Value&, const Value& planned) {
    return std::optional<Value>(Value::string("after " + planned.get_attribute("sha").as_string()));
  };
  const Value created = f.proposed_new();
  const PlanResponse resp = f.plan(Value::null(f.type), created);
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.planned_state.get_attribute("mode") == Value::string("after f00d"));
}

TEST_CASE("a plan function inside a list block plans each element from that element") {
  auto logic = std::make_shared<ScriptedLogic>();
  Schema s = file_schema();
  Attribute label = attribute("label", Type::string(), false, false, true);
  label.has_plan_function = true;
  NestedBlock disk;
  disk.type_name = "disk";
  disk.block.attributes = {attribute("name", Type::string(), true, false, false), label};
  s.block.blocks = {disk};
  logic->declared.resources["test_file"] = s;
  for (const char* path : {"disk[0].label", "disk[1].label"}) {
    logic->planners[path] = [](const Value&, const Value& config, const Value&) {
      return std::optional<Value>(
          Value::string("disk-" + config.get_attribute("name").as_string()));
    };
  }
  ProviderService service(logic);
  REQUIRE_FALSE(service.get_provider_schema().diagnostics.has_errors());
  const Type type =
      service.get_provider_schema().schema->resources.at("test_file").block.implied_type();
  const Type disk_type = disk.block.implied_type();
  const auto element = [&](const char* name) {
    return Value::object(disk_type, {{"name", Value::string(name)}});
  };
  const Value config =
      Value::object(type, {{"path", Value::string("/a")},
                           {"content", Value::string("x")},
                           {"disk", Value::list(disk_type, {element("a"), element("b")})}});
  const PlanResponse resp =
      service.plan_resource_change(PlanRequest{"test_file", Value::null(type), config, config, {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  const Value planned = resp.planned_state;
  const Value& disks = planned.get_attribute("disk");
  REQUIRE(disks.elements().size() == 2);
  CHECK(disks.elements()[0].get_attribute("label") == Value::string("disk-a"));
  CHECK(disks.elements()[1].get_attribute("label") == Value::string("disk-b"));
  // Each call also saw the whole resource, as planned so far.
  REQUIRE(logic->planned_resources.size() == 2);
  CHECK(logic->planned_resources[1].get_attribute("path") == Value::string("/a"));
}

TEST_CASE("a plan function inside a map nested attribute plans each element by its key") {
  auto logic = std::make_shared<ScriptedLogic>();
  auto disk = std::make_shared<NestedBlock>();
  disk->type_name = "disks";
  disk->nesting = NestingMode::Map;
  Attribute label = attribute("label", Type::string(), false, false, true);
  label.has_plan_function = true;
  disk->block.attributes = {attribute("size", Type::number(), true, false, false), label};
  Schema s = file_schema();
  Attribute disks = attribute("disks", disk->implied_type(), false, true, false);
  disks.nested = disk;
  s.block.attributes.push_back(disks);
  logic->declared.resources["test_file"] = s;
  for (const char* key : {"boot", "data"}) {
    logic->planners[std::string("disks[\"") + key + "\"].label"] = [key](const Value& prior,
                                                                         const Value& config,
                                                                         const Value&) {
      // The prior element is the one stored under the same key.
      const std::string before = prior.is_null() ? "new" : prior.get_attribute("label").as_string();
      return std::optional<Value>(Value::string(std::string(key) + "/" +
                                                config.get_attribute("size").to_display_string() +
                                                "/" + before));
    };
  }
  ProviderService service(logic);
  REQUIRE_FALSE(service.get_provider_schema().diagnostics.has_errors());
  const Type type =
      service.get_provider_schema().schema->resources.at("test_file").block.implied_type();
  const Type disk_type = disk->block.implied_type();
  const auto element = [&](int size, const Value& label_value) {
    return Value::object(disk_type, {{"size", Value::number(size)}, {"label", label_value}});
  };
  const Value none = Value::null(Type::string());
  const Value stored = Value::object(
      type, {{"id", Value::string("/a")},
             {"path", Value::string("/a")},
             {"content", Value::string("x")},
             {"sha", Value::string("abc")},
             {"mode", Value::string("0644")},
             {"disks", Value::map(disk_type, {{"boot", element(10, Value::string("old boot"))}})}});
  const Value config = Value::object(
      type, {{"path", Value::string("/a")},
             {"content", Value::string("x")},
             {"disks",
              Value::map(disk_type, {{"boot", element(10, none)}, {"data", element(20, none)}})}});
  const Value proposed =
      config.with_attribute("id", Value::string("/a"))
          .with_attribute("sha", Value::string("abc"))
          .with_attribute("mode", Value::string("0644"))
          .with_attribute("disks",
                          Value::map(disk_type, {{"boot", element(10, Value::string("old boot"))},
                                                 {"data", element(20, none)}}));
  const PlanResponse resp =
      service.plan_resource_change(PlanRequest{"test_file", stored, proposed, config, {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  const Value& planned = resp.planned_state.get_attribute("disks");
  CHECK(planned.attributes().at("boot").get_attribute("label") ==
        Value::string("boot/10/old boot"));
  CHECK(planned.attributes().at("data").get_attribute("label") == Value::string("data/20/new"));
}
