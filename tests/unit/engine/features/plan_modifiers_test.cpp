// Plan modifiers in the framework's sense: use_state_for_unknown and requires_replace_if (plan
// functions, the third, are rpc/plan_functions_test.cpp's).
#include <doctest/doctest.h>

#include "host/engine/schema/schema_rules.h"
#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// test_file with `content` deciding on replacement through the logic, `sha` keeping its
// stored value through updates and `mode` recomputed by every update.
struct ModifierFixture : ServiceFixture {
  Type type;

  ModifierFixture() {
    Schema s = file_schema();
    for (auto& attr : s.block.attributes) {
      if (attr.name == "content") attr.has_requires_replace_if = true;
      if (attr.name == "sha") {
        attr.use_state_for_unknown = true;
        attr.changes_on_update = false;
      }
      if (attr.name == "mode") attr.changes_on_update = true;
      if (attr.name == "sha" || attr.name == "mode") attr.has_plan_function = true;
    }
    logic->declared.resources["test_file"] = s;
    serve();
    REQUIRE_FALSE(service->get_provider_schema().diagnostics.has_errors());
    type = service->get_provider_schema().schema->resources.at("test_file").block.implied_type();
  }
  Value stored() const {
    return Value::object(type, {{"id", Value::string("/a")},
                                {"path", Value::string("/a")},
                                {"content", Value::string("x")},
                                {"sha", Value::string("abc")},
                                {"mode", Value::string("0644")}});
  }
  // A new object as the configuration proposes it: the computed values not known yet.
  Value proposed_new() const {
    return stored()
        .with_attribute("id", Value::null(Type::string()))
        .with_attribute("sha", Value::null(Type::string()))
        .with_attribute("mode", Value::null(Type::string()));
  }
  PlanResponse plan(const Value& prior, const Value& proposed) const {
    const Value config = proposed.with_attribute("id", Value::null(Type::string()))
                             .with_attribute("sha", Value::null(Type::string()))
                             .with_attribute("mode", Value::null(Type::string()));
    return service->plan_resource_change(PlanRequest{"test_file", prior, proposed, config, {}});
  }
};

}  // namespace

TEST_CASE("use_state_for_unknown keeps the stored value in an update, not in a create") {
  ModifierFixture f;
  const Value proposed = f.stored().with_attribute("content", Value::string("y"));
  const PlanResponse updated = f.plan(f.stored(), proposed);
  REQUIRE_FALSE(updated.diagnostics.has_errors());
  const Value planned = updated.planned_state;
  CHECK(planned.get_attribute("sha") == Value::string("abc"));
  CHECK(planned.get_attribute("mode").is_unknown());

  const PlanResponse created =
      f.plan(Value::null(f.type), proposed.with_attribute("sha", Value::null(Type::string())));
  CHECK(created.planned_state.get_attribute("sha").is_unknown());
}

TEST_CASE("requires_replace_if is asked about a change only, and its verdict decides") {
  ModifierFixture f;
  f.logic->replacers["content"] = [](const Value& before, const Value& after) {
    return after.as_string().size() < before.as_string().size();
  };
  const PlanResponse unchanged = f.plan(f.stored(), f.stored());
  CHECK(f.logic->asked_replace.empty());
  CHECK(unchanged.requires_replace.empty());

  const PlanResponse grown =
      f.plan(f.stored(), f.stored().with_attribute("content", Value::string("xyz")));
  CHECK(grown.requires_replace.empty());
  const PlanResponse shrunk =
      f.plan(f.stored(), f.stored().with_attribute("content", Value::string("")));
  CHECK(shrunk.requires_replace == std::vector<AttributePath>{{AttributeName{"content"}}});
  CHECK(f.logic->asked_replace ==
        std::vector<std::string>{"content:\"x\"->\"xyz\"", "content:\"x\"->\"\""});
  // The hook is judged in the whole plan, with the configuration and the stored object beside.
  const auto& around = f.logic->arounds.back();
  CHECK(around.hook == "requires_replace");
  CHECK(around.resource.get_attribute("content") == Value::string(""));
  CHECK(around.resource.get_attribute("sha") == Value::string("abc"));
  CHECK(around.config.get_attribute("content") == Value::string(""));
  CHECK(around.config.get_attribute("sha").is_null());
  CHECK(around.prior == f.stored());
}

TEST_CASE("the modifiers are refused where they cannot work") {
  Attribute plain = attribute("size", Type::number(), false, true, false);
  plain.use_state_for_unknown = true;
  Block block;
  block.attributes = {plain};
  Diagnostics not_computed;
  validate_block(block, "resource r", not_computed, BlockPlace::ResourceTop);
  CHECK(not_computed.has_errors());

  block.attributes[0].use_state_for_unknown = false;
  block.attributes[0].has_requires_replace_if = true;
  NestedBlock nested;
  nested.type_name = "disk";
  nested.block = block;
  nested.nesting = NestingMode::Set;
  Block outer;
  outer.blocks = {nested};
  Diagnostics in_set;
  validate_block(outer, "resource r", in_set, BlockPlace::ResourceTop);
  REQUIRE(in_set.has_errors());
  CHECK(in_set.items()[0].summary ==
        "resource r.disk: attribute \"size\" cannot have requires_replace_if");
  CHECK(in_set.items()[0].detail.find("inside a set") != std::string::npos);

  outer.blocks[0].nesting = NestingMode::List;
  Diagnostics in_list;
  validate_block(outer, "resource r", in_list, BlockPlace::ResourceTop);
  CHECK_FALSE(in_list.has_errors());
  Diagnostics data_source;
  validate_block(outer, "data source d", data_source);
  CHECK(data_source.has_errors());
}

TEST_CASE("requires_replace_if inside a list block is asked per element, at its path") {
  auto logic = std::make_shared<ScriptedLogic>();
  Schema s = file_schema();
  Attribute size = attribute("size", Type::number(), false, true, false);
  size.has_requires_replace_if = true;
  NestedBlock disk;
  disk.type_name = "disk";
  disk.block.attributes = {size};
  s.block.blocks = {disk};
  logic->declared.resources["test_file"] = s;
  logic->replacers["disk[1].size"] = [](const Value& before, const Value& after) {
    return !before.is_null() && after.as_number() < before.as_number();
  };
  ProviderService service(logic);
  REQUIRE_FALSE(service.get_provider_schema().diagnostics.has_errors());
  const Type type =
      service.get_provider_schema().schema->resources.at("test_file").block.implied_type();
  const Type disk_type = disk.block.implied_type();
  const auto with_disks = [&](std::vector<int64_t> sizes) {
    Value::List disks;
    for (int64_t n : sizes) disks.push_back(Value::object(disk_type, {{"size", Value::number(n)}}));
    return Value::object(type, {{"id", Value::string("/a")},
                                {"path", Value::string("/a")},
                                {"content", Value::string("x")},
                                {"sha", Value::string("abc")},
                                {"mode", Value::string("0644")},
                                {"disk", Value::list(disk_type, std::move(disks))}});
  };
  const auto plan = [&](const Value& prior, const Value& proposed) {
    return service.plan_resource_change(PlanRequest{"test_file", prior, proposed, proposed, {}});
  };
  const Value prior = with_disks({10, 20});
  const PlanResponse shrunk = plan(prior, with_disks({10, 5, 7}));
  REQUIRE_FALSE(shrunk.diagnostics.has_errors());
  CHECK(
      shrunk.requires_replace ==
      std::vector<AttributePath>{{AttributeName{"disk"}, ElementIndex{1}, AttributeName{"size"}}});
  // Unchanged elements are not asked; an added one is, with a null before.
  CHECK(logic->asked_replace ==
        std::vector<std::string>{"disk[1].size:20->5", "disk[2].size:null->7"});
  const PlanResponse grown = plan(prior, with_disks({10, 30}));
  CHECK(grown.requires_replace.empty());
}

TEST_CASE("a plan function inside a set is refused at load") {
  auto logic = std::make_shared<ScriptedLogic>();
  Schema s = file_schema();
  Attribute label = attribute("label", Type::string(), false, false, true);
  label.has_plan_function = true;
  NestedBlock disk;
  disk.type_name = "disk";
  disk.nesting = NestingMode::Set;
  disk.block.attributes = {label};
  s.block.blocks = {disk};
  logic->declared.resources["test_file"] = s;
  ProviderService service(logic);
  // Left out, not an error of the whole provider (see declared_schema_test).
  const Diagnostics& diags = service.load_problems();
  REQUIRE(diags.items().size() == 1);
  CHECK(diags.items()[0].severity == Severity::Warning);
  CHECK(diags.items()[0].detail.starts_with(
      "resource test_file.disk: attribute \"label\" cannot have a plan function"));
}
