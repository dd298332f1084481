#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

struct PlanFixture : ServiceFixture {
  Type type;

  explicit PlanFixture(bool has_update = true, bool importable = true) {
    logic->declared.resources["test_file"] = file_schema();
    logic->declared.resources["test_file"].has_update = has_update;
    logic->declared.resources["test_file"].importable = importable;
    type = serve().resources.at("test_file").block.implied_type();
  }
  Value object(Value::Object attrs) const { return Value::object(type, std::move(attrs)); }
  PlanResponse plan(const Value& prior, const Value& proposed, const Value& config) const {
    return service->plan_resource_change(PlanRequest{"test_file", prior, proposed, config, {}});
  }
};

}  // namespace

TEST_CASE("plan on create marks computed attributes the config leaves null as unknown") {
  PlanFixture f;
  Value config = f.object({{"path", Value::string("/a")}});
  PlanResponse resp = f.plan(Value::null(f.type), config, config);
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  Value planned = resp.planned_state;
  CHECK(planned.get_attribute("path") == Value::string("/a"));
  CHECK(planned.get_attribute("id").is_unknown());
  CHECK(planned.get_attribute("sha").is_unknown());
  CHECK(planned.get_attribute("mode").is_unknown());
  CHECK(resp.requires_replace.empty());
}

TEST_CASE("plan applies an attribute's default when the config leaves it null") {
  PlanFixture f;
  Value config = f.object({{"path", Value::string("/a")}});
  Value planned = f.plan(Value::null(f.type), config, config).planned_state;
  CHECK(planned.get_attribute("content") == Value::string(""));
}

TEST_CASE("an attribute with a default is served as optional and computed") {
  PlanFixture f;
  const auto& block = f.service->get_provider_schema().schema->resources.at("test_file").block;
  const Attribute* content = block.find_attribute("content");
  REQUIRE(content != nullptr);
  CHECK(content->optional);
  CHECK(content->computed);
  const Attribute* id = block.find_attribute("id");
  REQUIRE(id != nullptr);
  CHECK(id->computed);
}

TEST_CASE("plan with nothing changed returns the prior state exactly") {
  PlanFixture f;
  Value prior = f.object({{"id", Value::string("/a")},
                          {"path", Value::string("/a")},
                          {"content", Value::string("x")},
                          {"sha", Value::string("abc")},
                          {"mode", Value::string("0644")}});
  Value config = f.object({{"path", Value::string("/a")}, {"content", Value::string("x")}});
  PlanResponse resp = f.plan(prior, prior, config);
  CHECK(resp.planned_state == prior);
  CHECK(resp.requires_replace.empty());
}

TEST_CASE("plan of an in-place change marks computed values unknown but keeps the id") {
  PlanFixture f;
  Value prior = f.object({{"id", Value::string("/a")},
                          {"path", Value::string("/a")},
                          {"content", Value::string("x")},
                          {"sha", Value::string("abc")},
                          {"mode", Value::string("0644")}});
  Value config = f.object({{"path", Value::string("/a")}, {"content", Value::string("y")}});
  Value proposed = prior.with_attribute("content", Value::string("y"));
  PlanResponse resp = f.plan(prior, proposed, config);
  Value planned = resp.planned_state;
  CHECK(planned.get_attribute("content") == Value::string("y"));
  CHECK(planned.get_attribute("id") == Value::string("/a"));
  CHECK(planned.get_attribute("sha").is_unknown());
  CHECK(resp.requires_replace.empty());
}

TEST_CASE("a change to a force_new attribute requires replacement") {
  PlanFixture f;
  Value prior = f.object({{"id", Value::string("/a")},
                          {"path", Value::string("/a")},
                          {"content", Value::string("x")},
                          {"sha", Value::string("abc")},
                          {"mode", Value::string("0644")}});
  Value config = f.object({{"path", Value::string("/b")}, {"content", Value::string("x")}});
  Value proposed = prior.with_attribute("path", Value::string("/b"));
  PlanResponse resp = f.plan(prior, proposed, config);
  REQUIRE(resp.requires_replace.size() == 1);
  CHECK(resp.requires_replace[0] == AttributePath{AttributeName{"path"}});
}

TEST_CASE("without an update function every changed argument requires replacement") {
  PlanFixture f(/*has_update=*/false);
  Value prior = f.object({{"id", Value::string("/a")},
                          {"path", Value::string("/a")},
                          {"content", Value::string("x")},
                          {"sha", Value::string("abc")},
                          {"mode", Value::string("0644")}});
  Value config = f.object({{"path", Value::string("/a")}, {"content", Value::string("y")}});
  PlanResponse resp = f.plan(prior, prior.with_attribute("content", Value::string("y")), config);
  REQUIRE(resp.requires_replace.size() == 1);
  CHECK(resp.requires_replace[0] == AttributePath{AttributeName{"content"}});
}

TEST_CASE("plan of an unknown resource type is an error naming the type") {
  PlanFixture f;
  PlanResponse resp = f.service->plan_resource_change(PlanRequest{"test_nope", {}, {}, {}, {}});
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].summary.find("test_nope") != std::string::npos);
}

TEST_CASE("removing an argument with a default from the config plans the default again") {
  PlanFixture f;
  Value prior = f.object({{"id", Value::string("/a")},
                          {"path", Value::string("/a")},
                          {"content", Value::string("x")},
                          {"sha", Value::string("abc")},
                          {"mode", Value::string("0644")}});
  Value config = f.object({{"path", Value::string("/a")}});
  // The CLI proposes the prior value for a computed attribute the config leaves null.
  PlanResponse resp = f.plan(prior, prior, config);
  Value planned = resp.planned_state;
  CHECK(planned.get_attribute("content") == Value::string(""));
  CHECK(planned.get_attribute("sha").is_unknown());
}
