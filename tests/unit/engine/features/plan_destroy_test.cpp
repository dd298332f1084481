// Destroy plans: with a resource that checks destroys, the provider announces plan_destroy and
// the CLI asks it to plan each destroy; the plan stays null, and the check may warn or refuse.
#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

struct DestroyFixture : ServiceFixture {
  Type type;

  explicit DestroyFixture(bool checks_destroy) {
    Schema schema = file_schema();
    schema.checks_destroy = checks_destroy;
    logic->declared.resources["test_file"] = schema;
    type = serve().resources.at("test_file").block.implied_type();
  }
  Value stored() const {
    return Value::object(type, {{"id", Value::string("f1")}, {"path", Value::string("/a")}});
  }
  PlanResponse plan_destroy() const {
    const Value none = Value::null(type);
    return service->plan_resource_change(
        PlanRequest{"test_file", stored(), none, none, "{\"kept\":1}"});
  }
};

}  // namespace

TEST_CASE("without a resource that checks destroys, the CLI is not asked to plan them") {
  DestroyFixture f(false);
  CHECK_FALSE(f.service->get_provider_schema().capabilities.plan_destroy);
  CHECK_FALSE(f.service->get_metadata().capabilities.plan_destroy);
}

TEST_CASE("a resource that checks destroys makes the provider plan every destroy") {
  DestroyFixture f(true);
  CHECK(f.service->get_provider_schema().capabilities.plan_destroy);
  CHECK(f.service->get_metadata().capabilities.plan_destroy);
}

TEST_CASE("a destroy plan is null, keeps the private data, and the check sees the stored state") {
  DestroyFixture f(true);
  Value seen;
  f.logic->callbacks[Operation::PlanDestroy] = [&](ResourceData& d) {
    seen = Value::string(d.get("path").as_string() + " " + d.id());
    return Diagnostics{};
  };
  const PlanResponse resp = f.plan_destroy();
  CHECK_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.planned_state.is_null());
  CHECK(resp.planned_private == "{\"kept\":1}");
  CHECK(seen == Value::string("/a f1"));
}

TEST_CASE("the destroy check warns, or refuses the destroy with its error") {
  DestroyFixture f(true);
  f.logic->callbacks[Operation::PlanDestroy] = [](ResourceData&) {
    Diagnostics diags;
    diags.warning("Only forgotten", "the API cannot delete files; it is removed from state");
    return diags;
  };
  PlanResponse warned = f.plan_destroy();
  CHECK_FALSE(warned.diagnostics.has_errors());
  REQUIRE(warned.diagnostics.items().size() == 1);
  CHECK(warned.diagnostics.items()[0].summary == "Only forgotten");
  CHECK(warned.planned_state.is_null());

  f.logic->callbacks[Operation::PlanDestroy] = [](ResourceData&) {
    Diagnostics diags;
    diags.error("Deletion protection is on", "set deletion_protection = false first");
    return diags;
  };
  PlanResponse refused = f.plan_destroy();
  REQUIRE(refused.diagnostics.has_errors());
  CHECK(refused.diagnostics.items()[0].summary == "Deletion protection is on");
  CHECK(refused.planned_state.is_null());
}

TEST_CASE("a resource that does not check destroys plans them null without its logic") {
  // Another type of a provider that announces plan_destroy for one of them.
  DestroyFixture f(false);
  Schema checking = file_schema();
  checking.checks_destroy = true;
  f.logic->declared.resources["test_guarded"] = checking;
  f.service = std::make_unique<ProviderService>(f.logic);
  bool called = false;
  f.logic->callbacks[Operation::PlanDestroy] = [&](ResourceData&) {
    called = true;
    return Diagnostics{};
  };
  const PlanResponse resp = f.plan_destroy();
  CHECK(f.service->get_provider_schema().capabilities.plan_destroy);
  CHECK_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.planned_state.is_null());
  CHECK_FALSE(called);
}
