// Write-only attributes: the configuration's value reaches create and update, and is never
// planned, saved, read back or upgraded into state.
#include <doctest/doctest.h>

#include "host/engine/schema/schema_rules.h"
#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// resource "test_user": name (required), password (optional, sensitive, write-only), version,
// and set_at (computed, changes on update: when the password was last sent).
struct WriteOnlyFixture : ServiceFixture {
  Type type;

  explicit WriteOnlyFixture(bool has_update = true) {
    Schema s;
    s.has_update = has_update;
    Attribute password = attribute("password", Type::string(), false, true, false);
    password.sensitive = true;
    password.write_only = true;
    Attribute set_at = attribute("set_at", Type::number(), false, false, true);
    set_at.changes_on_update = true;
    s.block.attributes = {attribute("name", Type::string(), true, false, false), password,
                          attribute("version", Type::number(), false, true, false), set_at};
    logic->declared.resources["test_user"] = s;
    serve();
    REQUIRE_FALSE(service->get_provider_schema().diagnostics.has_errors());
    type = service->get_provider_schema().schema->resources.at("test_user").block.implied_type();
  }
  Value object(const Value& id, const Value& password) const {
    return Value::object(type, {{"id", id},
                                {"name", Value::string("ann")},
                                {"password", password},
                                {"version", Value::number(1)}});
  }
};

}  // namespace

TEST_CASE("a plan never holds a write-only value, so the same value plans no change") {
  WriteOnlyFixture f;
  const Value config = f.object(Value::null(Type::string()), Value::string("hunter2"));
  const PlanResponse created = f.service->plan_resource_change(
      PlanRequest{"test_user", Value::null(f.type), config, config, {}});
  REQUIRE_FALSE(created.diagnostics.has_errors());
  CHECK(created.planned_state.get_attribute("password").is_null());

  const Value prior = f.object(Value::string("u1"), Value::null(Type::string()));
  const Value proposed = f.object(Value::string("u1"), Value::string("hunter2"));
  const PlanResponse again =
      f.service->plan_resource_change(PlanRequest{"test_user", prior, proposed, config, {}});
  REQUIRE_FALSE(again.diagnostics.has_errors());
  CHECK(again.planned_state == prior);
}

TEST_CASE("create reads a write-only value from the configuration and cannot set one") {
  WriteOnlyFixture f;
  std::string seen;
  Diagnostics set_diags;
  f.logic->callbacks[Operation::Create] = [&](ResourceData& d) {
    seen = d.get("password").as_string();
    set_diags = d.set("password", Value::string("other"));
    d.set_id("u1");
    return Diagnostics{};
  };
  const Value config = f.object(Value::null(Type::string()), Value::string("hunter2"));
  const Value planned = f.object(Value::unknown(Type::string()), Value::null(Type::string()));
  const ApplyResponse resp = f.service->apply_resource_change(
      ApplyRequest{"test_user", Value::null(f.type), planned, config, {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(seen == "hunter2");
  REQUIRE(set_diags.has_errors());
  CHECK(set_diags.items()[0].summary == "Attribute \"password\" is write-only");
  CHECK(resp.new_state.get_attribute("password").is_null());
}

TEST_CASE("an upgraded state drops a value stored before the attribute became write-only") {
  WriteOnlyFixture f;
  UpgradeRequest req;
  req.type_name = "test_user";
  req.raw_state_json = R"({"id":"u1","name":"ann","password":"old-secret","version":1})";
  const UpgradeResponse resp = f.service->upgrade_resource_state(req);
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.upgraded_state.get_attribute("password").is_null());
}

TEST_CASE("a CLI that does not know write-only attributes may not be given one") {
  WriteOnlyFixture f;
  ValidateRequest req{"test_user", f.object(Value::null(Type::string()), Value::string("hunter2")),
                      false};
  const Diagnostics refused = f.service->validate_resource_config(req);
  REQUIRE(refused.has_errors());
  CHECK(refused.items()[0].summary == "Write-only attribute \"password\" needs a newer CLI");
  CHECK(refused.items()[0].path == AttributePath{AttributeName{"password"}});

  req.write_only_allowed = true;
  CHECK_FALSE(f.service->validate_resource_config(req).has_errors());
  req.write_only_allowed = false;
  req.config = f.object(Value::null(Type::string()), Value::null(Type::string()));
  CHECK_FALSE(f.service->validate_resource_config(req).has_errors());
}

TEST_CASE("write-only is for top-level, non-computed attributes of resources") {
  Attribute token = attribute("token", Type::string(), false, true, false);
  token.write_only = true;
  Block block;
  block.attributes = {token};
  Diagnostics fine;
  validate_block(block, "resource r", fine, BlockPlace::ResourceTop);
  CHECK_FALSE(fine.has_errors());

  Diagnostics elsewhere;
  validate_block(block, "data source d", elsewhere);
  REQUIRE(elsewhere.has_errors());
  CHECK(elsewhere.items()[0].summary == "data source d: attribute \"token\" cannot be write-only");

  NestedBlock nested;
  nested.type_name = "login";
  nested.block = block;
  Block outer;
  outer.blocks = {nested};
  Diagnostics inside;
  validate_block(outer, "resource r", inside, BlockPlace::ResourceTop);
  CHECK(inside.has_errors());

  block.attributes[0].computed = true;
  Diagnostics computed;
  validate_block(block, "resource r", computed, BlockPlace::ResourceTop);
  CHECK(computed.has_errors());
}

TEST_CASE("a write-only value alone is no change: nothing is recomputed or replaced") {
  // Without update, every changed argument would force a new object.
  WriteOnlyFixture f(/*has_update=*/false);
  const Value prior = f.object(Value::string("u1"), Value::null(Type::string()))
                          .with_attribute("set_at", Value::number(1));
  const Value config = f.object(Value::null(Type::string()), Value::string("hunter2"));
  const Value proposed = prior.with_attribute("password", Value::string("hunter2"));
  const PlanResponse resp =
      f.service->plan_resource_change(PlanRequest{"test_user", prior, proposed, config, {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.planned_state == prior);
  CHECK(resp.requires_replace.empty());
}

TEST_CASE("with another change, the write-only value is sent and has_change does not compare it") {
  WriteOnlyFixture f;
  const Value prior = f.object(Value::string("u1"), Value::null(Type::string()))
                          .with_attribute("set_at", Value::number(1));
  const Value config = f.object(Value::null(Type::string()), Value::string("hunter2"))
                           .with_attribute("version", Value::number(2));
  const Value proposed = prior.with_attribute("password", Value::string("hunter2"))
                             .with_attribute("version", Value::number(2));
  const PlanResponse planned =
      f.service->plan_resource_change(PlanRequest{"test_user", prior, proposed, config, {}});
  REQUIRE_FALSE(planned.diagnostics.has_errors());
  CHECK(planned.planned_state.get_attribute("set_at").is_unknown());
  bool password_changed = true;
  std::string sent;
  f.logic->callbacks[Operation::Update] = [&](ResourceData& d) {
    password_changed = d.has_change("password");
    sent = d.get("password").as_string();
    return d.set("set_at", Value::number(2));
  };
  const ApplyResponse resp = f.service->apply_resource_change(
      ApplyRequest{"test_user", prior, planned.planned_state, config, {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK_FALSE(password_changed);
  CHECK(sent == "hunter2");
  CHECK(resp.new_state.get_attribute("set_at") == Value::number(2));
}
