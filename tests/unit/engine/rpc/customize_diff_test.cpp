// customize_diff: what the resource may change in a plan, and what it may not.
#include "host/engine/rpc/customize_diff.h"

#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

struct CustomizeFixture : ServiceFixture {
  Type type;

  explicit CustomizeFixture(ScriptedLogic::Callback customize) {
    logic->declared.resources["test_file"] = file_schema();
    logic->callbacks[Operation::CustomizeDiff] = std::move(customize);
    logic->declared.resources["test_file"].customizes_diff = true;
    type = serve().resources.at("test_file").block.implied_type();
  }
  Value file(const char* content) const {
    return Value::object(type, {{"id", Value::string("/a")},
                                {"path", Value::string("/a")},
                                {"content", Value::string(content)},
                                {"sha", Value::string("old")},
                                {"mode", Value::string("0644")}});
  }
  Value config(const char* content) const {
    return Value::object(type,
                         {{"path", Value::string("/a")}, {"content", Value::string(content)}});
  }
  PlanResponse plan(const Value& prior, const Value& proposed, const Value& config) const {
    return service->plan_resource_change({"test_file", prior, proposed, config, {}});
  }
};

}  // namespace

TEST_CASE("customize_diff plans known or unknown values for computed attributes") {
  CustomizeFixture f([](ResourceData& d) {
    d.set_new_computed("mode");
    return d.set("sha", Value::string("sha-of-" + d.get("content").as_string()));
  });
  PlanResponse resp = f.plan(f.file("x"), f.file("y"), f.config("y"));
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  Value planned = resp.planned_state;
  CHECK(planned.get_attribute("sha") == Value::string("sha-of-y"));
  CHECK(planned.get_attribute("mode").is_unknown());
}

TEST_CASE("customize_diff may force a replacement when an attribute changes") {
  CustomizeFixture f([](ResourceData& d) {
    d.force_new("content");
    return Diagnostics{};
  });
  PlanResponse changed = f.plan(f.file("x"), f.file("y"), f.config("y"));
  REQUIRE(changed.requires_replace.size() == 1);
  CHECK(path_to_string(changed.requires_replace[0]) == "content");
  PlanResponse same = f.plan(f.file("x"), f.file("x"), f.config("x"));
  CHECK(same.requires_replace.empty());
  PlanResponse create = f.plan(Value::null(f.type), f.config("x"), f.config("x"));
  CHECK(create.requires_replace.empty());
}

TEST_CASE("customize_diff may plan a new id, for an update that renames the object") {
  CustomizeFixture f([](ResourceData& d) {
    d.set_new_computed("id");
    return Diagnostics{};
  });
  PlanResponse resp = f.plan(f.file("x"), f.file("y"), f.config("y"));
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.planned_state.get_attribute("id").is_unknown());
}

TEST_CASE("customize_diff may not change what the configuration decides") {
  CustomizeFixture f([](ResourceData& d) { return d.set("content", Value::string("other")); });
  PlanResponse resp = f.plan(f.file("x"), f.file("y"), f.config("y"));
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].summary == "test_file: customize_diff cannot plan \"content\"");
  CHECK(path_to_string(resp.diagnostics.items()[0].path) == "content");
}

TEST_CASE("customize_diff reads the prior private data and may hand new data to apply") {
  std::string seen;
  CustomizeFixture f([&seen](ResourceData& d) {
    seen = d.private_data();
    d.set_private_data(R"({"plan":"y"})");
    return Diagnostics{};
  });
  PlanResponse resp = f.service->plan_resource_change(
      {"test_file", f.file("x"), f.file("y"), f.config("y"), R"({"etag":"e1"})"});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(seen == R"({"etag":"e1"})");
  CHECK(resp.planned_private == R"({"plan":"y"})");
}

TEST_CASE("an error from customize_diff fails the plan") {
  CustomizeFixture f([](ResourceData&) {
    Diagnostics d;
    d.error("size may only grow");
    return d;
  });
  PlanResponse resp = f.plan(f.file("x"), f.file("y"), f.config("y"));
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].summary == "size may only grow");
}

TEST_CASE("is_unknown tells a value not known yet from an unset one") {
  CustomizeFixture f([](ResourceData& d) {
    CHECK(d.is_unknown("content"));
    CHECK_FALSE(d.is_unknown("path"));
    CHECK(d.is_unknown("mode"));  // computed and not configured: decided at apply
    return Diagnostics{};
  });
  Value config = f.config("x").with_attribute("content", Value::unknown(Type::string()));
  PlanResponse resp = f.plan(Value::null(f.type), config, config);
  CHECK_FALSE(resp.diagnostics.has_errors());
}
