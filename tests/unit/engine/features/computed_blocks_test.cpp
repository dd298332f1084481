// Computed blocks (protocol 6.11, Terraform 1.16): a block the provider fills in when the
// configuration has none, planned unknown for a new object and kept from the state after; a
// CLI that cannot plan one is refused with the type and the block named. And planned private
// data: the plan made again at apply starts from what the first plan chose.
#include <doctest/doctest.h>

#include "host/engine/schema/schema_rules.h"
#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// resource "test_server": name (required), and `port` blocks (a list, computed: the server
// opens port 22 when the configuration asks for none), each with a number and a computed
// state, and inside, `rule` blocks.
struct ComputedBlockFixture : ServiceFixture {
  Type type;
  Type port_type;

  explicit ComputedBlockFixture(bool has_update = true) {
    Schema s;
    s.has_update = has_update;
    NestedBlock rule;
    rule.type_name = "rule";
    rule.block.attributes = {attribute("cidr", Type::string(), false, true, false)};
    NestedBlock port;
    port.type_name = "port";
    port.computed = true;
    port.block.attributes = {attribute("number", Type::number(), false, true, true),
                             attribute("state", Type::string(), false, false, true)};
    port.block.blocks = {rule};
    s.block.attributes = {attribute("name", Type::string(), true, false, false)};
    s.block.blocks = {port};
    logic->declared.resources["test_server"] = s;
    serve();
    REQUIRE_FALSE(service->get_provider_schema().diagnostics.has_errors());
    const Schema& served = service->get_provider_schema().schema->resources.at("test_server");
    type = served.block.implied_type();
    port_type = served.block.find_block("port")->implied_type();
  }
  // A port block; with `cidr`, one rule block inside it.
  Value port(double number, const char* state, const char* cidr = nullptr) const {
    const Type element = port_type.element();
    const Type rule = element.attributes().at("rule").element();
    Value::List rules;
    if (cidr) rules.push_back(Value::object(rule, {{"cidr", Value::string(cidr)}}));
    return Value::object(element, {{"number", Value::number(number)},
                                   {"state", Value::string(state)},
                                   {"rule", Value::list(rule, std::move(rules))}});
  }
  Value server(const Value& id, const char* name, const Value& ports) const {
    return Value::object(type, {{"id", id}, {"name", Value::string(name)}, {"port", ports}});
  }
  // What Terraform 1.16 sends for a configuration with no port block: null.
  Value no_ports() const { return Value::null(port_type); }
  PlanRequest plan(const Value& prior, const Value& config, bool computed_blocks_allowed,
                   const std::string& planned_private = "") const {
    PlanRequest req{"test_server", prior, config, config, "", Value(), false};
    req.computed_blocks_allowed = computed_blocks_allowed;
    req.planned_private = planned_private;
    return req;
  }
};

}  // namespace

TEST_CASE("the blocks inside a computed block are served computed too") {
  ComputedBlockFixture f;
  const Schema& served = f.service->get_provider_schema().schema->resources.at("test_server");
  const NestedBlock* port = served.block.find_block("port");
  REQUIRE(port != nullptr);
  CHECK(port->computed);
  REQUIRE(port->block.find_block("rule") != nullptr);
  CHECK(port->block.find_block("rule")->computed);
  // And so are the attributes: an optional one stays optional.
  const Attribute* number = port->block.find_attribute("number");
  REQUIRE(number != nullptr);
  CHECK((number->optional && number->computed));
  CHECK(port->block.find_block("rule")->block.find_attribute("cidr")->computed);
}

TEST_CASE("a computed block left out is unknown in a new object's plan, then kept from state") {
  ComputedBlockFixture f;
  const Value config = f.server(Value::null(Type::string()), "web", f.no_ports());
  const PlanResponse created = f.service->plan_resource_change(
      f.plan(Value::null(f.type), config, /*computed_blocks_allowed=*/true));
  REQUIRE_FALSE(created.diagnostics.has_errors());
  CHECK(created.planned_state.get_attribute("port").is_unknown());

  // Create fills the blocks in; the state keeps them.
  f.logic->callbacks[Operation::Create] = [&](ResourceData& d) {
    d.set_id("s1");
    return d.set("port", Value::list(f.port_type.element(), {f.port(22, "open")}));
  };
  const ApplyResponse applied = f.service->apply_resource_change(
      ApplyRequest{"test_server", Value::null(f.type), created.planned_state, config, {}});
  REQUIRE_FALSE(applied.diagnostics.has_errors());
  const Value stored = applied.new_state;
  REQUIRE(stored.get_attribute("port").elements().size() == 1);

  // The configuration still has none: the stored blocks are the plan, nothing changes, and an
  // update elsewhere keeps them too.
  const PlanResponse again = f.service->plan_resource_change(
      f.plan(stored, f.server(Value::string("s1"), "web", f.no_ports()), true));
  REQUIRE_FALSE(again.diagnostics.has_errors());
  CHECK(again.planned_state == stored);
  CHECK(again.requires_replace.empty());
  const PlanResponse renamed = f.service->plan_resource_change(
      f.plan(stored, f.server(Value::string("s1"), "api", f.no_ports()), true));
  REQUIRE_FALSE(renamed.diagnostics.has_errors());
  CHECK(renamed.planned_state.get_attribute("port") == stored.get_attribute("port"));
}

TEST_CASE("a computed block the configuration writes is planned as any block") {
  ComputedBlockFixture f;
  const Value written = Value::list(f.port_type.element(), {f.port(8080, "open", "10.0.0.0/8")});
  const PlanResponse planned = f.service->plan_resource_change(
      f.plan(Value::null(f.type), f.server(Value::null(Type::string()), "web", written), false));
  // Written out, down to the blocks inside, it needs nothing of protocol 6.11: any CLI plans it.
  REQUIRE_FALSE(planned.diagnostics.has_errors());
  CHECK(planned.planned_state.get_attribute("port") == written);
  // The blocks inside a computed block are computed too: one left out is refused there.
  const Value no_rule = Value::list(f.port_type.element(), {f.port(8080, "open")});
  const PlanResponse refused = f.service->plan_resource_change(
      f.plan(Value::null(f.type), f.server(Value::null(Type::string()), "web", no_rule), false));
  REQUIRE(refused.diagnostics.has_errors());
  CHECK(refused.diagnostics.items()[0].summary ==
        "test_server: block \"port[0].rule\" is computed, which this CLI cannot plan");
}

TEST_CASE("a CLI that does not plan computed blocks is told which block it cannot plan") {
  ComputedBlockFixture f;
  const Value config = f.server(Value::null(Type::string()), "web", f.no_ports());
  // OpenTofu and Terraform before 1.16 send an empty list for a block left out.
  const Value empty =
      f.server(Value::null(Type::string()), "web", Value::list(f.port_type.element(), {}));
  for (const Value& sent : {config, empty}) {
    const PlanResponse refused = f.service->plan_resource_change(
        f.plan(Value::null(f.type), sent, /*computed_blocks_allowed=*/false));
    REQUIRE(refused.diagnostics.has_errors());
    const Diagnostic& d = refused.diagnostics.items()[0];
    CHECK(d.summary == "test_server: block \"port\" is computed, which this CLI cannot plan");
    CHECK(d.detail.find("Terraform 1.16") != std::string::npos);
    CHECK(d.path == AttributePath{AttributeName{"port"}});
  }
}

TEST_CASE("a computed block must not be required, force a new object, or be outside a resource") {
  NestedBlock port;
  port.type_name = "port";
  port.computed = true;
  port.min_items = 1;
  port.force_new = true;
  port.block.attributes = {attribute("number", Type::number(), true, false, false)};
  Block top;
  top.blocks = {port};
  Diagnostics in_resource;
  validate_block(top, "resource r", in_resource, BlockPlace::ResourceTop);
  REQUIRE(in_resource.items().size() == 3);
  CHECK(in_resource.items()[0].summary ==
        "resource r: block \"port\" is computed, so it cannot be required or have min_items");
  CHECK(in_resource.items()[1].summary ==
        "resource r: block \"port\" is computed, so it cannot force a new resource");
  CHECK(in_resource.items()[2].summary ==
        "resource r: block \"port\" is computed, so attribute \"number\" in it cannot be "
        "required");
  top.blocks[0].min_items = 0;
  top.blocks[0].force_new = false;
  top.blocks[0].block.attributes[0].required = false;
  top.blocks[0].block.attributes[0].optional = true;
  Diagnostics in_data_source;
  validate_block(top, "data source d", in_data_source, BlockPlace::Elsewhere);
  REQUIRE(in_data_source.items().size() == 1);
  CHECK(in_data_source.items()[0].summary ==
        "data source d: block \"port\" is computed, which only the blocks of resources may be");
}

TEST_CASE("the plan made again at apply starts from the private data of the first plan") {
  ServiceFixture f;
  Schema s;
  s.customizes_diff = true;
  s.block.attributes = {attribute("name", Type::string(), true, false, false)};
  f.logic->declared.resources["test_name"] = s;
  f.serve();
  const Type type =
      f.service->get_provider_schema().schema->resources.at("test_name").block.implied_type();
  std::string seen;
  bool kept = false;
  f.logic->callbacks[Operation::CustomizeDiff] = [&](ResourceData& d) {
    seen = d.private_data();
    kept = d.planned_private_kept();
    if (seen.empty()) d.set_private_data(R"({"suffix":"k3x"})");
    return Diagnostics{};
  };
  const Value config =
      Value::object(type, {{"id", Value::null(Type::string())}, {"name", Value::string("a")}});
  PlanRequest first{"test_name", Value::null(type), config, config, ""};
  first.store_planned_private = true;
  const PlanResponse planned = f.service->plan_resource_change(first);
  REQUIRE_FALSE(planned.diagnostics.has_errors());
  CHECK(seen.empty());
  CHECK(kept);
  CHECK(planned.planned_private == R"({"suffix":"k3x"})");

  // Terraform 1.16 sends it back with the plan it makes at apply.
  PlanRequest at_apply = first;
  at_apply.planned_private = planned.planned_private;
  const PlanResponse replanned = f.service->plan_resource_change(at_apply);
  CHECK(seen == R"({"suffix":"k3x"})");
  CHECK(replanned.planned_private == R"({"suffix":"k3x"})");
  // Another CLI says it keeps nothing: the script can tell.
  first.store_planned_private = false;
  f.service->plan_resource_change(first);
  CHECK_FALSE(kept);
}
