// Protocol 6 nested attributes: the plan rules of nested blocks apply inside them element by
// element, while the attribute itself may be null or computed as a whole.
#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// resource "test_net": subnets, an optional list nested attribute of { cidr (required,
// force_new), dhcp (optional, default true), gateway (computed, changes on update) }; dns, an
// optional+computed single nested attribute of { server (optional) } that changes on update.
Schema net_schema() {
  auto subnets = std::make_shared<NestedBlock>();
  subnets->type_name = "subnets";
  subnets->nesting = NestingMode::List;
  Attribute cidr = attribute("cidr", Type::string(), true, false, false);
  cidr.force_new = true;
  Attribute dhcp = attribute("dhcp", Type::boolean(), false, true, false);
  dhcp.default_value = Value::boolean(true);
  Attribute gateway = attribute("gateway", Type::string(), false, false, true);
  gateway.changes_on_update = true;
  subnets->block.attributes = {cidr, dhcp, gateway};
  auto dns = std::make_shared<NestedBlock>();
  dns->type_name = "dns";
  dns->nesting = NestingMode::Single;
  dns->block.attributes = {attribute("server", Type::string(), false, true, false)};

  Schema s;
  Attribute subnets_attr = attribute("subnets", subnets->implied_type(), false, true, false);
  subnets_attr.nested = subnets;
  Attribute dns_attr = attribute("dns", dns->implied_type(), false, true, true);
  dns_attr.nested = dns;
  dns_attr.changes_on_update = true;
  s.block.attributes = {attribute("name", Type::string(), true, false, false), subnets_attr,
                        dns_attr};
  return s;
}

struct NetFixture : ServiceFixture {
  Type type, subnet_type, dns_type;

  NetFixture() {
    logic->declared.resources["test_net"] = net_schema();
    const Block& block = serve().resources.at("test_net").block;
    type = block.implied_type();
    subnet_type = block.find_attribute("subnets")->nested->block.implied_type();
    dns_type = block.find_attribute("dns")->nested->block.implied_type();
  }
  Value subnet(const std::string& cidr, Value::Object more = {}) const {
    more["cidr"] = Value::string(cidr);
    return Value::object(subnet_type, std::move(more));
  }
  Value net(Value subnets, Value::Object more = {}) const {
    more["name"] = Value::string("core");
    more["subnets"] = std::move(subnets);
    return Value::object(type, std::move(more));
  }
  Value subnets(Value::List items) const { return Value::list(subnet_type, std::move(items)); }
  // `proposed` is what the CLI proposes: the config, plus prior values for computed attributes
  // the config leaves null (inside nested attributes too).
  PlanResponse plan(const Value& prior, const Value& config, const Value& proposed) const {
    return service->plan_resource_change(PlanRequest{"test_net", prior, proposed, config, {}});
  }
  PlanResponse plan(const Value& prior, const Value& config) const {
    return plan(prior, config, config);
  }
};

}  // namespace

TEST_CASE("a nested attribute's defaults apply per element and its inner defaults are served") {
  NetFixture f;
  const Block& served = f.service->get_provider_schema().schema->resources.at("test_net").block;
  const Attribute* dhcp = served.find_attribute("subnets")->nested->block.find_attribute("dhcp");
  CHECK((dhcp->optional && dhcp->computed));  // a default makes it optional+computed
  const Value config = f.net(f.subnets({f.subnet("10.0.1.0/24")}));
  const Value planned = f.plan(Value::null(f.type), config).planned_state;
  const Value first = planned.get_attribute("subnets").elements()[0];
  CHECK(first.get_attribute("dhcp") == Value::boolean(true));
  CHECK(first.get_attribute("gateway").is_unknown());
}

TEST_CASE("an unset nested attribute stays null; an unset computed one becomes unknown") {
  NetFixture f;
  const Value config = f.net(Value::null(f.subnets({}).type()));
  const Value planned = f.plan(Value::null(f.type), config).planned_state;
  CHECK(planned.get_attribute("subnets").is_null());  // unlike a block, not an empty list
  CHECK(planned.get_attribute("dns").is_unknown());
}

TEST_CASE("an unchanged element keeps its computed values, a changed one recomputes them") {
  NetFixture f;
  const Value prior = f.net(
      f.subnets({f.subnet("10.0.1.0/24",
                          {{"dhcp", Value::boolean(true)}, {"gateway", Value::string("gw1")}}),
                 f.subnet("10.0.2.0/24",
                          {{"dhcp", Value::boolean(true)}, {"gateway", Value::string("gw2")}})}),
      {{"id", Value::string("core")},
       {"dns", Value::object(f.dns_type, {{"server", Value::string("10.0.0.53")}})}});
  const Value config = f.net(f.subnets(
      {f.subnet("10.0.1.0/24"), f.subnet("10.0.2.0/24", {{"dhcp", Value::boolean(false)}})}));
  const Value proposed = f.net(
      f.subnets({f.subnet("10.0.1.0/24", {{"gateway", Value::string("gw1")}}),
                 f.subnet("10.0.2.0/24",
                          {{"dhcp", Value::boolean(false)}, {"gateway", Value::string("gw2")}})}),
      {{"id", Value::string("core")}, {"dns", prior.get_attribute("dns")}});
  PlanResponse resp = f.plan(prior, config, proposed);
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  const Value planned = resp.planned_state;
  const Value subnets = planned.get_attribute("subnets");
  const auto& elements = subnets.elements();
  CHECK(elements[0].get_attribute("gateway") == Value::string("gw1"));
  CHECK(elements[1].get_attribute("gateway").is_unknown());
  // The resource changed, so dns, which changes on update, may be recomputed as a whole.
  CHECK(planned.get_attribute("dns").is_unknown());
  CHECK(resp.requires_replace.empty());
}

TEST_CASE("a force_new attribute inside a nested attribute replaces at the element's path") {
  NetFixture f;
  const Value prior = f.net(f.subnets({f.subnet("10.0.1.0/24", {{"dhcp", Value::boolean(true)},
                                                                {"gateway", Value::string("g")}})}),
                            {{"id", Value::string("core")}});
  const Value config = f.net(f.subnets({f.subnet("10.0.9.0/24")}));
  PlanResponse resp = f.plan(prior, config);
  REQUIRE(resp.requires_replace.size() == 1);
  CHECK(path_to_string(resp.requires_replace[0]) == "subnets[0].cidr");
}

TEST_CASE("uses_nested_attributes finds them at any depth") {
  ProviderSchema schema;
  schema.resources["test_plain"] = file_schema();
  CHECK_FALSE(uses_nested_attributes(schema));
  schema.data_sources["test_net"] = net_schema();
  CHECK(uses_nested_attributes(schema));
}
