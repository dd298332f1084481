#include "host/engine/rules/equivalence.h"

#include <doctest/doctest.h>

#include <cctype>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool same_ignoring_case(const Value& a, const Value& b) {
  return lower(a.as_string()) == lower(b.as_string());
}

// test_file with `path` (force_new) compared without regard to case, and a list block `rule`
// whose `host` is compared the same way.
struct EquivalenceFixture {
  std::shared_ptr<ScriptedLogic> logic = std::make_shared<ScriptedLogic>();
  std::unique_ptr<ProviderService> service;
  Type type;
  Type rule_type;

  EquivalenceFixture() {
    Schema s = file_schema();
    s.block.attributes[0].has_equivalence = true;
    NestedBlock rule;
    rule.type_name = "rule";
    Attribute host = attribute("host", Type::string(), false, true, false);
    host.has_equivalence = true;
    rule.block.attributes = {host};
    s.block.blocks = {rule};
    logic->declared.resources["test_file"] = s;
    logic->equivalences["path"] = same_ignoring_case;
    logic->equivalences["rule[1].host"] = same_ignoring_case;
    service = std::make_unique<ProviderService>(logic);
    type = service->get_provider_schema().schema->resources.at("test_file").block.implied_type();
    rule_type = rule.block.implied_type();
  }
  Value rules(std::vector<std::string> hosts) const {
    Value::List out;
    for (auto& h : hosts) out.push_back(Value::object(rule_type, {{"host", Value::string(h)}}));
    return Value::list(rule_type, std::move(out));
  }
  Value object(const std::string& path, const std::string& content, Value rule) const {
    return Value::object(type, {{"id", Value::string("1")},
                                {"path", Value::string(path)},
                                {"content", Value::string(content)},
                                {"sha", Value::string("s")},
                                {"mode", Value::string("0644")},
                                {"rule", std::move(rule)}});
  }
  // The plan of a create with `path`: what the provider computes is unknown.
  Value planned_create(const std::string& path) const {
    return Value::object(type, {{"id", Value::unknown(Type::string())},
                                {"path", Value::string(path)},
                                {"content", Value::string("x")},
                                {"sha", Value::unknown(Type::string())},
                                {"mode", Value::unknown(Type::string())},
                                {"rule", rules({})}});
  }
  Value config(const std::string& path, const std::string& content, Value rule) const {
    return Value::object(type, {{"path", Value::string(path)},
                                {"content", Value::string(content)},
                                {"rule", std::move(rule)}});
  }
};

}  // namespace

TEST_CASE("keep_equivalent puts back the earlier spelling only where the logic says same") {
  EquivalenceFixture f;
  const Block& block = f.logic->declared.resources.at("test_file").block;
  const Value earlier = f.object("/A", "x", f.rules({"one", "Two"}));
  const Value later = f.object("/a", "y", f.rules({"ONE", "two"}));
  std::vector<std::string> asked;
  const Value kept = keep_equivalent(
      block, earlier, later, [&](const AttributePath& p, const Value& a, const Value& b) {
        asked.push_back(path_to_string(p));
        return f.logic->equivalences.count(path_to_string(p)) && same_ignoring_case(a, b);
      });
  CHECK(kept.get_attribute("path") == Value::string("/A"));
  CHECK(kept.get_attribute("content") == Value::string("y"));  // no equivalence declared
  // rule[0].host has no equivalence in this fixture's logic; rule[1].host has.
  CHECK(kept.get_attribute("rule") == f.rules({"ONE", "Two"}));
  CHECK(asked == std::vector<std::string>{"path", "rule[0].host", "rule[1].host"});
}

TEST_CASE("keep_equivalent asks nothing about equal, null or unknown values") {
  EquivalenceFixture f;
  const Block& block = f.logic->declared.resources.at("test_file").block;
  int asked = 0;
  const SameValue count = [&](const AttributePath&, const Value&, const Value&) {
    ++asked;
    return true;
  };
  const Value v = f.object("/a", "x", f.rules({"one"}));
  CHECK(keep_equivalent(block, v, v, count) == v);
  Value unknown_path = v.with_attribute("path", Value::unknown(Type::string()));
  CHECK(keep_equivalent(block, v, unknown_path, count) == unknown_path);
  CHECK(keep_equivalent(block, Value::null(f.type), v, count) == v);
  CHECK(asked == 0);
}

TEST_CASE("plan keeps the stored spelling of an equivalent value: no update, no replacement") {
  EquivalenceFixture f;
  const Value prior = f.object("/Data", "x", f.rules({"a", "Web"}));
  const Value config = f.config("/data", "x", f.rules({"a", "WEB"}));
  const Value proposed = f.object("/data", "x", f.rules({"a", "WEB"}));
  PlanResponse resp =
      f.service->plan_resource_change(PlanRequest{"test_file", prior, proposed, config, {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.planned_state == prior);
  CHECK(resp.requires_replace.empty());  // path is force_new, but did not change
}

TEST_CASE("plan of a real change to a suppressed attribute still replaces") {
  EquivalenceFixture f;
  const Value prior = f.object("/data", "x", f.rules({}));
  const Value config = f.config("/other", "x", f.rules({}));
  const Value proposed = f.object("/other", "x", f.rules({}));
  PlanResponse resp =
      f.service->plan_resource_change(PlanRequest{"test_file", prior, proposed, config, {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.planned_state.get_attribute("path") == Value::string("/other"));
  REQUIRE(resp.requires_replace.size() == 1);
  CHECK(path_to_string(resp.requires_replace[0]) == "path");
}

TEST_CASE("read keeps the stored spelling when the object reports an equivalent one") {
  EquivalenceFixture f;
  const Value stored = f.object("/Data", "x", f.rules({}));
  f.logic->callbacks[Operation::Read] = [](ResourceData& d) {
    Diagnostics diags = d.set("path", Value::string("/DATA"));
    diags.append(d.set("content", Value::string("drifted")));
    return diags;
  };
  ReadResponse resp = f.service->read_resource(ReadRequest{"test_file", stored, {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  const Value read = resp.new_state;
  CHECK(read.get_attribute("path") == Value::string("/Data"));
  CHECK(read.get_attribute("content") == Value::string("drifted"));
}

TEST_CASE("apply keeps the planned spelling when the script sets an equivalent one") {
  EquivalenceFixture f;
  const Value config = f.config("/Data", "x", f.rules({}));
  const Value planned = f.planned_create("/Data");
  f.logic->callbacks[Operation::Create] = [](ResourceData& d) {
    d.set_id("1");
    return d.set("path", Value::string("/data"));  // the API lower-cases paths
  };
  ApplyResponse resp = f.service->apply_resource_change(
      ApplyRequest{"test_file", Value::null(f.type), planned, config, {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.new_state.get_attribute("path") == Value::string("/Data"));
}

TEST_CASE("apply still reports a value that is not equivalent to the planned one") {
  EquivalenceFixture f;
  const Value config = f.config("/Data", "x", f.rules({}));
  const Value planned = f.planned_create("/Data");
  f.logic->callbacks[Operation::Create] = [](ResourceData& d) {
    d.set_id("1");
    return d.set("path", Value::string("/elsewhere"));
  };
  ApplyResponse resp = f.service->apply_resource_change(
      ApplyRequest{"test_file", Value::null(f.type), planned, config, {}});
  CHECK(resp.diagnostics.has_errors());
}
