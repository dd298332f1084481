// An update never loses a value it did not touch: the plan keeps computed values (unless they
// change on update), the new state is the prior state with the plan and the script's set calls
// on top, and a script that sets a value the plan kept is told what to declare.
#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// resource "test_server": size (optional), region (optional+computed), ip and created_at
// (computed), etag (computed, changes on update); disk: a list block of { size (required),
// serial (computed) }.
Schema server_schema() {
  Schema s;
  Attribute etag = attribute("etag", Type::string(), false, false, true);
  etag.changes_on_update = true;
  s.block.attributes = {attribute("size", Type::number(), false, true, false),
                        attribute("region", Type::string(), false, true, true),
                        attribute("ip", Type::string(), false, false, true),
                        attribute("created_at", Type::string(), false, false, true), etag};
  NestedBlock disk;
  disk.type_name = "disk";
  disk.block.attributes = {attribute("size", Type::number(), true, false, false),
                           attribute("serial", Type::string(), false, false, true)};
  s.block.blocks = {disk};
  return s;
}

struct ServerFixture : ServiceFixture {
  Type type, disk_type;

  explicit ServerFixture(bool customizes_diff = false) {
    logic->declared.resources["test_server"] = server_schema();
    logic->declared.resources["test_server"].customizes_diff = customizes_diff;
    const Block& block = serve().resources.at("test_server").block;
    type = block.implied_type();
    disk_type = block.find_block("disk")->block.implied_type();
  }
  Value disk(int64_t size, Value serial) const {
    return Value::object(disk_type, {{"size", Value::number(size)}, {"serial", serial}});
  }
  Value config(int64_t size, int64_t disk_size) const {
    return Value::object(
        type, {{"size", Value::number(size)},
               {"disk", Value::list(disk_type, {disk(disk_size, Value::null(Type::string()))})}});
  }
  Value stored() const {
    return Value::object(type, {{"id", Value::string("s1")},
                                {"size", Value::number(1)},
                                {"region", Value::string("eu")},
                                {"ip", Value::string("10.0.0.7")},
                                {"created_at", Value::string("2026-11-25")},
                                {"etag", Value::string("e1")},
                                {"disk", Value::list(disk_type, {disk(10, Value::string("d0"))})}});
  }
  // What the CLI proposes: the config, with the stored values of computed attributes it
  // leaves null.
  Value proposed(const Value& config) const {
    Value out = stored();
    out = out.with_attribute("size", config.get_attribute("size"));
    const Value disk_config = config.get_attribute("disk").elements()[0];
    return out.with_attribute(
        "disk", Value::list(disk_type,
                            {disk(disk_config.get_attribute("size").as_number().to_int64().value(),
                                  Value::string("d0"))}));
  }
  PlanResponse plan(const Value& config) const {
    return service->plan_resource_change(
        PlanRequest{"test_server", stored(), proposed(config), config, {}});
  }
  ApplyResponse apply(const PlanResponse& planned, const Value& config) const {
    return service->apply_resource_change(
        ApplyRequest{"test_server", stored(), planned.planned_state, config, {}});
  }
};

}  // namespace

TEST_CASE("the plan of an update keeps computed values, except those that change on update") {
  ServerFixture f;
  const PlanResponse resp = f.plan(f.config(2, 10));
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  const Value planned = resp.planned_state;
  CHECK(planned.get_attribute("size") == Value::number(2));
  CHECK(planned.get_attribute("region") == Value::string("eu"));
  CHECK(planned.get_attribute("ip") == Value::string("10.0.0.7"));
  CHECK(planned.get_attribute("created_at") == Value::string("2026-11-25"));
  CHECK(planned.get_attribute("etag").is_unknown());
  CHECK(planned.get_attribute("disk").elements()[0].get_attribute("serial") == Value::string("d0"));
}

TEST_CASE("an update that sets only what changed keeps every value it did not touch") {
  ServerFixture f;
  const Value config = f.config(2, 10);
  f.logic->callbacks[Operation::Update] = [&](ResourceData& d) {
    CHECK(d.has_change("size"));
    CHECK_FALSE(d.has_change("ip"));
    return Diagnostics{};  // the API call sends the size; nothing is set
  };
  const ApplyResponse resp = f.apply(f.plan(config), config);
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  // etag was unknown in the plan and the script did not set it: the stored value stays.
  CHECK(resp.new_state == f.stored().with_attribute("size", Value::number(2)));
}

TEST_CASE("an update may set a value that changes on update") {
  ServerFixture f;
  const Value config = f.config(2, 10);
  f.logic->callbacks[Operation::Update] = [&](ResourceData& d) {
    return d.set("etag", Value::string("e2"));
  };
  const ApplyResponse resp = f.apply(f.plan(config), config);
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.new_state.get_attribute("etag") == Value::string("e2"));
}

TEST_CASE("an update that changes a kept computed value is told what to declare") {
  ServerFixture f;
  const Value config = f.config(2, 10);
  f.logic->callbacks[Operation::Update] = [&](ResourceData& d) {
    return d.set("ip", Value::string("10.0.0.8"));
  };
  const ApplyResponse resp = f.apply(f.plan(config), config);
  REQUIRE(resp.diagnostics.has_errors());
  const Diagnostic& diag = resp.diagnostics.items()[0];
  CHECK(diag.summary == "test_server: update set \"ip\" to a value other than the planned one");
  CHECK(diag.detail.find("declare that it changes on update; if only some changes do, make it "
                         "unknown for those in customize_diff.") != std::string::npos);
  // What the script did is saved all the same: the object has that address now.
  CHECK(resp.new_state.get_attribute("ip") == Value::string("10.0.0.8"));
}

TEST_CASE("customize_diff's set_new_computed still makes a kept value unknown") {
  ServerFixture f(/*customizes_diff=*/true);
  f.logic->callbacks[Operation::CustomizeDiff] = [&](ResourceData& d) {
    if (d.has_change("size")) d.set_new_computed("ip");
    return Diagnostics{};
  };
  const Value planned = f.plan(f.config(2, 10)).planned_state;
  CHECK(planned.get_attribute("ip").is_unknown());
  CHECK(planned.get_attribute("created_at") == Value::string("2026-11-25"));
}

TEST_CASE("a create still plans every computed value unknown and saves what the script set") {
  ServerFixture f;
  const Value config = f.config(2, 10);
  const PlanResponse resp = f.service->plan_resource_change(
      PlanRequest{"test_server", Value::null(f.type), config, config, {}});
  const Value planned = resp.planned_state;
  CHECK(planned.get_attribute("ip").is_unknown());
  CHECK(planned.get_attribute("region").is_unknown());
  f.logic->callbacks[Operation::Create] = [&](ResourceData& d) {
    d.set_id("s2");
    return d.set("ip", Value::string("10.0.0.9"));
  };
  const ApplyResponse applied = f.service->apply_resource_change(
      ApplyRequest{"test_server", Value::null(f.type), resp.planned_state, config, {}});
  REQUIRE_FALSE(applied.diagnostics.has_errors());
  const Value saved = applied.new_state;
  CHECK(saved.get_attribute("ip") == Value::string("10.0.0.9"));
  CHECK(saved.get_attribute("created_at").is_null());
}
