// Timeouts: the `timeouts` block a resource is served with, how ResourceData resolves an
// operation's timeout, and why changing only the timeouts never replaces anything.
#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;
using namespace std::chrono_literals;

namespace {

struct TimeoutsFixture : ServiceFixture {
  const Schema* served = nullptr;
  Type type, timeouts_type;

  explicit TimeoutsFixture(bool has_update = true) {
    Schema s = file_schema();
    s.has_update = has_update;
    s.timeouts = {{"create", Duration(10min)}, {"default", Duration(2min)}};
    logic->declared.resources["test_file"] = s;
    served = &serve().resources.at("test_file");
    type = served->block.implied_type();
    timeouts_type = served->block.find_block("timeouts")->block.implied_type();
  }
  Value with_timeouts(Value object, Value::Object timeouts) const {
    return object.with_attribute("timeouts", Value::object(timeouts_type, std::move(timeouts)));
  }
  Value file(const char* content) const {
    return Value::object(type, {{"id", Value::string("/a")},
                                {"path", Value::string("/a")},
                                {"content", Value::string(content)},
                                {"sha", Value::string("s")},
                                {"mode", Value::string("m")}});
  }
};

}  // namespace

TEST_CASE("a resource that declares timeouts is served with a timeouts block of durations") {
  TimeoutsFixture f;
  const NestedBlock* block = f.served->block.find_block("timeouts");
  REQUIRE(block != nullptr);
  CHECK(block->nesting == NestingMode::Single);
  CHECK(block->operational);
  REQUIRE(block->block.attributes.size() == 2);
  CHECK(block->block.find_attribute("create")->optional);
  CHECK(block->block.find_attribute("create")->duration);
  CHECK(block->block.find_attribute("default") != nullptr);
}

TEST_CASE("an operation's timeout: the config's block, the declared one, default, 20 minutes") {
  TimeoutsFixture f;
  Value config = f.with_timeouts(f.file("x"), {{"create", Value::string("90s")}});
  ResourceData d(*f.served, Value::null(f.type), config, config);
  CHECK(d.timeout("create") == Duration(90s));
  CHECK(d.timeout("update") == Duration(2min));

  ResourceData declared(*f.served, Value::null(f.type), f.file("x"), f.file("x"));
  CHECK(declared.timeout("create") == Duration(10min));

  ResourceData deleting(*f.served, config, Value::null(f.type), Value::null(f.type));
  CHECK(deleting.timeout("create") == Duration(90s));  // a delete reads them from state

  const Schema without_timeouts = file_schema();  // ResourceData keeps a pointer to it
  ResourceData plain(without_timeouts, Value::null(f.type), Value(), Value());
  CHECK(plain.timeout("delete") == Duration(20min));
}

TEST_CASE("changing only the timeouts neither replaces nor needs an update function") {
  TimeoutsFixture f(/*has_update=*/false);
  bool called = false;
  f.logic->callbacks[Operation::Update] = [&](ResourceData&) {
    called = true;
    return Diagnostics{};
  };
  Value prior = f.with_timeouts(f.file("x"), {{"create", Value::string("1m")}});
  Value planned = f.with_timeouts(f.file("x"), {{"create", Value::string("5m")}});
  PlanResponse plan = f.service->plan_resource_change({"test_file", prior, planned, planned, {}});
  CHECK(plan.requires_replace.empty());
  Value planned_state = plan.planned_state;
  ApplyResponse apply =
      f.service->apply_resource_change({"test_file", prior, planned_state, planned, {}});
  REQUIRE_FALSE(apply.diagnostics.has_errors());
  CHECK_FALSE(called);
  CHECK(apply.new_state.get_attribute("timeouts") == planned.get_attribute("timeouts"));
}

TEST_CASE("a timeout that is not a duration is a validation error at its path") {
  TimeoutsFixture f;
  Value config = f.with_timeouts(f.file("x"), {{"create", Value::string("soon")}});
  Diagnostics d = f.service->validate_resource_config({"test_file", config});
  REQUIRE(d.has_errors());
  CHECK(d.items()[0].summary == "Invalid duration \"soon\"");
  CHECK(path_to_string(d.items()[0].path) == "timeouts.create");
}
