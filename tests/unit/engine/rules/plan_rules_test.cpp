// The plan rules inside nested blocks: defaults, unknown computed values and replacements are
// decided element by element, lists by index and sets by the configured values.
#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// resource "test_server": name (required); disk: list block of { size (required), kind
// (optional, default "ssd"), label (optional, force_new), serial (computed, changes on update) };
// rule: set block of { port (required), note (optional), uid (computed) }.
Schema server_schema() {
  Schema s;
  s.block.attributes = {attribute("name", Type::string(), true, false, false)};
  NestedBlock disk;
  disk.type_name = "disk";
  disk.nesting = NestingMode::List;
  Attribute kind = attribute("kind", Type::string(), false, true, false);
  kind.default_value = Value::string("ssd");
  Attribute label = attribute("label", Type::string(), false, true, false);
  label.force_new = true;
  Attribute serial = attribute("serial", Type::string(), false, false, true);
  serial.changes_on_update = true;
  disk.block.attributes = {attribute("size", Type::number(), true, false, false), kind, label,
                           serial};
  NestedBlock rule;
  rule.type_name = "rule";
  rule.nesting = NestingMode::Set;
  rule.block.attributes = {attribute("port", Type::number(), true, false, false),
                           attribute("note", Type::string(), false, true, false),
                           attribute("uid", Type::string(), false, false, true)};
  s.block.blocks = {disk, rule};
  return s;
}

struct ServerFixture : ServiceFixture {
  Type type, disk_type, rule_type;

  explicit ServerFixture(bool has_update = true) {
    logic->declared.resources["test_server"] = server_schema();
    logic->declared.resources["test_server"].has_update = has_update;
    const Block& block = serve().resources.at("test_server").block;
    type = block.implied_type();
    disk_type = block.find_block("disk")->block.implied_type();
    rule_type = block.find_block("rule")->block.implied_type();
  }
  Value disk(int64_t size, Value::Object more = {}) const {
    more["size"] = Value::number(size);
    return Value::object(disk_type, std::move(more));
  }
  Value rule(int64_t port, Value::Object more = {}) const {
    more["port"] = Value::number(port);
    return Value::object(rule_type, std::move(more));
  }
  Value server(Value::List disks, Value::List rules, Value::Object more = {}) const {
    more["name"] = Value::string("web");
    more["disk"] = Value::list(disk_type, std::move(disks));
    more["rule"] = Value::set(rule_type, std::move(rules));
    return Value::object(type, std::move(more));
  }
  PlanResponse plan(const Value& prior, const Value& proposed, const Value& config) const {
    return service->plan_resource_change(PlanRequest{"test_server", prior, proposed, config, {}});
  }
  Value planned(const Value& prior, const Value& proposed, const Value& config) const {
    PlanResponse resp = plan(prior, proposed, config);
    REQUIRE_FALSE(resp.diagnostics.has_errors());
    return resp.planned_state;
  }
};

Value str(const char* s) {
  return Value::string(s);
}

// A state as the provider saved it: two disks and two rules, everything computed known.
Value applied(const ServerFixture& f) {
  return f.server({f.disk(10, {{"kind", str("ssd")}, {"serial", str("s0")}}),
                   f.disk(20, {{"kind", str("hdd")}, {"serial", str("s1")}})},
                  {f.rule(80, {{"uid", str("u80")}}), f.rule(443, {{"uid", str("u443")}})},
                  {{"id", str("srv-1")}});
}

Value applied_config(const ServerFixture& f) {
  return f.server({f.disk(10), f.disk(20, {{"kind", str("hdd")}})}, {f.rule(80), f.rule(443)});
}

// What the CLI proposes for a config: prior computed values carried into the config's
// elements (lists by index, sets by matching configured values).
Value disk_of(const Value& server, size_t i) {
  return server.get_attribute("disk").elements().at(i);
}

}  // namespace

TEST_CASE("on create, defaults fill nested blocks and their computed attributes are unknown") {
  ServerFixture f;
  Value config = f.server({f.disk(10)}, {f.rule(80)});
  Value planned = f.planned(Value::null(f.type), config, config);
  CHECK(disk_of(planned, 0).get_attribute("kind") == str("ssd"));
  CHECK(disk_of(planned, 0).get_attribute("serial").is_unknown());
  CHECK(disk_of(planned, 0).get_attribute("label").is_null());
  const Value rule = planned.get_attribute("rule").elements().at(0);
  CHECK(rule.get_attribute("port") == Value::number(80));
  CHECK(rule.get_attribute("uid").is_unknown());
}

TEST_CASE("a plan with nothing changed in nested blocks returns the prior state exactly") {
  ServerFixture f;
  PlanResponse resp = f.plan(applied(f), applied(f), applied_config(f));
  CHECK(resp.planned_state == applied(f));
  CHECK(resp.requires_replace.empty());
}

TEST_CASE("a changed list element gets unknown computed values; unchanged elements keep theirs") {
  ServerFixture f;
  Value config =
      f.server({f.disk(10), f.disk(25, {{"kind", str("hdd")}})}, {f.rule(80), f.rule(443)});
  Value proposed =
      f.server({f.disk(10, {{"kind", str("ssd")}, {"serial", str("s0")}}),
                f.disk(25, {{"kind", str("hdd")}, {"serial", str("s1")}})},
               {f.rule(80, {{"uid", str("u80")}}), f.rule(443, {{"uid", str("u443")}})},
               {{"id", str("srv-1")}});
  PlanResponse resp = f.plan(applied(f), proposed, config);
  Value planned = resp.planned_state;
  CHECK(disk_of(planned, 0).get_attribute("serial") == str("s0"));
  CHECK(disk_of(planned, 1).get_attribute("serial").is_unknown());
  CHECK(disk_of(planned, 1).get_attribute("size") == Value::number(25));
  CHECK(planned.get_attribute("id") == str("srv-1"));
  CHECK(planned.get_attribute("rule") == applied(f).get_attribute("rule"));
  CHECK(resp.requires_replace.empty());
}

TEST_CASE("removing a nested argument from the config plans its default again") {
  ServerFixture f;
  Value config = f.server({f.disk(10), f.disk(20)}, {f.rule(80), f.rule(443)});
  Value proposed = applied(f);
  // The CLI proposes the prior "hdd" for the optional+computed kind the config now leaves null.
  Value planned = f.planned(applied(f), proposed, config);
  CHECK(disk_of(planned, 1).get_attribute("kind") == str("ssd"));
  CHECK(disk_of(planned, 1).get_attribute("serial").is_unknown());
}

TEST_CASE("a change to a force_new attribute in a list element replaces, at its path") {
  ServerFixture f;
  Value config =
      f.server({f.disk(10, {{"label", str("boot")}}), f.disk(20, {{"kind", str("hdd")}})},
               {f.rule(80), f.rule(443)});
  Value proposed = applied(f);
  Value::List disks = proposed.get_attribute("disk").elements();
  disks[0] = disks[0].with_attribute("label", str("boot"));
  proposed = proposed.with_attribute("disk", Value::list(f.disk_type, disks));
  PlanResponse resp = f.plan(applied(f), proposed, config);
  REQUIRE(resp.requires_replace.size() == 1);
  CHECK(path_to_string(resp.requires_replace[0]) == "disk[0].label");
}

TEST_CASE("adding a list element whose force_new attribute is set replaces") {
  ServerFixture f;
  Value::List disks = applied(f).get_attribute("disk").elements();
  disks.push_back(f.disk(30, {{"label", str("data")}}));
  Value proposed = applied(f).with_attribute("disk", Value::list(f.disk_type, disks));
  PlanResponse resp = f.plan(applied(f), proposed, proposed);
  REQUIRE(resp.requires_replace.size() == 1);
  CHECK(path_to_string(resp.requires_replace[0]) == "disk[2].label");
}

TEST_CASE("a new set element gets unknown computed values; the others keep theirs") {
  ServerFixture f;
  Value config = f.server({f.disk(10), f.disk(20, {{"kind", str("hdd")}})},
                          {f.rule(80), f.rule(443), f.rule(8080)});
  Value::List rules = applied(f).get_attribute("rule").elements();
  rules.push_back(f.rule(8080));
  Value proposed = applied(f).with_attribute("rule", Value::set(f.rule_type, rules));
  Value planned = f.planned(applied(f), proposed, config);
  int unknown = 0;
  const Value rules_planned = planned.get_attribute("rule");
  for (const Value& r : rules_planned.elements()) {
    if (r.get_attribute("uid").is_unknown()) {
      ++unknown;
      CHECK(r.get_attribute("port") == Value::number(8080));
    }
  }
  CHECK(unknown == 1);
  CHECK(planned.get_attribute("rule").length() == 3);
}

TEST_CASE("without an update function any change inside a block replaces at the block") {
  ServerFixture f(/*has_update=*/false);
  Value::List rules = {f.rule(80, {{"uid", str("u80")}, {"note", str("web")}}),
                       f.rule(443, {{"uid", str("u443")}})};
  Value proposed = applied(f).with_attribute("rule", Value::set(f.rule_type, rules));
  PlanResponse resp = f.plan(applied(f), proposed, proposed);
  REQUIRE(resp.requires_replace.size() == 1);
  CHECK(path_to_string(resp.requires_replace[0]) == "rule");
}

TEST_CASE("a force_new block replaces when any element changes") {
  ServerFixture f;
  Schema s = server_schema();
  s.block.blocks[1].force_new = true;
  f.logic->declared.resources["test_server"] = s;
  f.service = std::make_unique<ProviderService>(f.logic);
  Value::List rules = {f.rule(80, {{"uid", str("u80")}}), f.rule(444)};
  Value proposed = applied(f).with_attribute("rule", Value::set(f.rule_type, rules));
  PlanResponse resp = f.plan(applied(f), proposed, proposed);
  REQUIRE(resp.requires_replace.size() == 1);
  CHECK(path_to_string(resp.requires_replace[0]) == "rule");
}

TEST_CASE("apply reports a nested block that comes back other than planned") {
  ServerFixture f;
  f.logic->callbacks[Operation::Create] = [&](ResourceData& d) {
    d.set_id("srv-1");
    return d.set("disk", Value::list(f.disk_type,
                                     {f.disk(99, {{"kind", str("ssd")}, {"serial", str("x")}})}));
  };
  Value config = f.server({f.disk(10)}, {});
  Value planned = f.planned(Value::null(f.type), config, config);
  ApplyResponse resp = f.service->apply_resource_change(
      ApplyRequest{"test_server", Value::null(f.type), planned, config, {}});
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].summary.find("\"disk\"") != std::string::npos);
}

TEST_CASE("a state that holds null for an absent list block plans no change against []") {
  ServerFixture f;
  Value prior = applied(f).with_attribute("rule", Value::null(Type::set(f.rule_type)));
  Value config = applied_config(f).with_attribute("rule", Value::set(f.rule_type, {}));
  Value proposed = prior.with_attribute("rule", Value::set(f.rule_type, {}));
  PlanResponse resp = f.plan(prior, proposed, config);
  CHECK(resp.requires_replace.empty());
}

TEST_CASE("a saved state has empty collections, never null, for list and set blocks") {
  ServerFixture f;
  f.logic->callbacks[Operation::Read] = [&](ResourceData& d) { return d.set("rule", Value()); };
  ReadResponse resp = f.service->read_resource({"test_server", applied(f), {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  Value state = resp.new_state;
  CHECK(state.get_attribute("rule").is_known());
  CHECK(state.get_attribute("rule").length() == 0);
}
