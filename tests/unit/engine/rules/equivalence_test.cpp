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
struct EquivalenceFixture : ServiceFixture {
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
    type = serve().resources.at("test_file").block.implied_type();
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
      block, earlier, later, {[&](const AttributePath& p, const Value& a, const Value& b) {
        asked.push_back(path_to_string(p));
        return f.logic->equivalences.count(path_to_string(p)) && same_ignoring_case(a, b);
      }});
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
  CHECK(keep_equivalent(block, v, v, {count}) == v);
  Value unknown_path = v.with_attribute("path", Value::unknown(Type::string()));
  CHECK(keep_equivalent(block, v, unknown_path, {count}) == unknown_path);
  CHECK(keep_equivalent(block, Value::null(f.type), v, {count}) == v);
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
  // The comparison is judged in what the read returned.
  REQUIRE(f.logic->arounds.size() == 1);
  CHECK(f.logic->arounds[0].hook == "same_value");
  CHECK(f.logic->arounds[0].resource.get_attribute("content") == Value::string("drifted"));
  CHECK(f.logic->arounds[0].config.is_null());
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

namespace {

// test_zone: a set of strings `records` whose elements are the same without regard to case, and
// a set block `target` (host, port, a computed uid) whose elements are the same when their hosts
// are, without regard to case, and their ports are.
struct SetFixture : ServiceFixture {
  Type type;
  Type target_type;

  SetFixture() {
    Schema s;
    Attribute records = attribute("records", Type::set(Type::string()), false, true, false);
    records.has_element_normaliser = true;
    s.block.attributes = {records};
    NestedBlock target;
    target.type_name = "target";
    target.nesting = NestingMode::Set;
    target.has_element_normaliser = true;
    target.block.attributes = {attribute("host", Type::string(), true, false, false),
                               attribute("port", Type::number(), false, true, false),
                               attribute("uid", Type::string(), false, false, true)};
    s.block.blocks = {target};
    logic->declared.resources["test_zone"] = s;
    logic->normalisers["records"] = [](const Value& v) {
      return Value::string(lower(v.as_string()));
    };
    logic->normalisers["target"] = [](const Value& v) {
      return Value::string(lower(v.get_attribute("host").as_string()) + ":" +
                           v.get_attribute("port").to_display_string());
    };
    type = serve().resources.at("test_zone").block.implied_type();
    target_type = target.block.implied_type();
  }
  const Block& block() const { return logic->declared.resources.at("test_zone").block; }
  static Value records(std::vector<std::string> texts) {
    Value::List out;
    for (auto& t : texts) out.push_back(Value::string(t));
    return Value::set(Type::string(), std::move(out));
  }
  Value target(const std::string& host, int64_t port, const Value& uid) const {
    return Value::object(
        target_type, {{"host", Value::string(host)}, {"port", Value::number(port)}, {"uid", uid}});
  }
  Value targets(Value::List elements) const { return Value::set(target_type, std::move(elements)); }
  Value object(Value records, Value targets, const Value& id = Value::string("z1")) const {
    return Value::object(
        type, {{"id", id}, {"records", std::move(records)}, {"target", std::move(targets)}});
  }
  Value config(Value records, Value targets) const {
    return Value::object(type, {{"records", std::move(records)}, {"target", std::move(targets)}});
  }
  Equivalence equivalence(Keeping keeping = Keeping::ByElement) const {
    return {[](const AttributePath&, const Value&, const Value&) { return false; },
            [this](const AttributePath& path, const Value::List& elements) {
              Diagnostics diags;
              return logic->normal_forms("test_zone", path, elements, {Value(), Value(), Value()},
                                         diags);
            },
            keeping};
  }
};

const Value kUnknownText = Value::unknown(Type::string());

}  // namespace

TEST_CASE("set elements pair by their normal form and keep the earlier spelling") {
  SetFixture f;
  const Value earlier = f.object(f.records({"2001:DB8::1", "192.0.2.1", "gone"}), f.targets({}));
  const Value later = f.object(f.records({"2001:db8::1", "192.0.2.1", "new"}), f.targets({}));
  const Value kept = keep_equivalent(f.block(), earlier, later, f.equivalence());
  // The element in both sets as it is asks nothing; the others pair by normal form.
  CHECK(kept.get_attribute("records") == f.records({"2001:DB8::1", "192.0.2.1", "new"}));
  CHECK(f.logic->normalised ==
        std::vector<std::string>{"records:\"2001:DB8::1\"", "records:\"gone\"",
                                 "records:\"2001:db8::1\"", "records:\"new\""});
  // A plan keeps an attribute's prior value only whole: a set that pairs only in part stays.
  CHECK(keep_equivalent(f.block(), earlier, later, f.equivalence(Keeping::WholeAttributes)) ==
        later);
  const Value respelt = f.object(f.records({"2001:db8::1", "192.0.2.1", "GONE"}), f.targets({}));
  CHECK(keep_equivalent(f.block(), earlier, respelt, f.equivalence(Keeping::WholeAttributes)) ==
        earlier);
}

TEST_CASE("each earlier element pairs once, and elements with unknown parts are not asked") {
  SetFixture f;
  const Value earlier = f.object(f.records({"A"}), f.targets({}));
  const Value later = f.object(f.records({"a", "a "}), f.targets({}));
  f.logic->normalisers["records"] = [](const Value& v) {
    return Value::string(lower(v.as_string()).substr(0, 1));
  };
  // "a" and "a " share the normal form "a"; only the first (in the set's order) pairs.
  CHECK(keep_equivalent(f.block(), earlier, later, f.equivalence()).get_attribute("records") ==
        f.records({"A", "a "}));
  f.logic->normalised.clear();
  const Value unknown =
      f.object(f.records({"A"}), f.targets({f.target("x", 1, Value::null(Type::string()))}));
  const Value partly = f.object(
      f.records({"A"}), f.targets({Value::object(
                            f.target_type, {{"host", kUnknownText}, {"port", Value::number(1)}})}));
  CHECK(keep_equivalent(f.block(), unknown, partly, f.equivalence()) == partly);
  CHECK(f.logic->normalised.empty());
}

TEST_CASE("plan: a set configured in another spelling of its stored elements is no change") {
  SetFixture f;
  const Value prior = f.object(f.records({"2001:DB8::1", "192.0.2.1"}),
                               f.targets({f.target("Web", 80, Value::string("u1"))}));
  // The CLI proposes the configuration; the set block's element it cannot pair with the stored
  // one (a host spelt differently) has no uid.
  const Value config = f.config(f.records({"2001:db8::1", "192.0.2.1"}),
                                f.targets({f.target("WEB", 80, Value::null(Type::string()))}));
  const Value proposed = f.object(f.records({"2001:db8::1", "192.0.2.1"}),
                                  f.targets({f.target("WEB", 80, Value::null(Type::string()))}));
  PlanResponse resp =
      f.service->plan_resource_change(PlanRequest{"test_zone", prior, proposed, config, {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.planned_state == prior);
}

TEST_CASE("plan: a real change to a set with a normaliser still shows") {
  SetFixture f;
  const Value prior =
      f.object(f.records({"2001:DB8::1"}), f.targets({f.target("Web", 80, Value::string("u1"))}));
  const Value config = f.config(f.records({"2001:db8::1", "192.0.2.9"}),
                                f.targets({f.target("WEB", 80, Value::null(Type::string())),
                                           f.target("api", 81, Value::null(Type::string()))}));
  const Value proposed = f.object(f.records({"2001:db8::1", "192.0.2.9"}),
                                  f.targets({f.target("WEB", 80, Value::null(Type::string())),
                                             f.target("api", 81, Value::null(Type::string()))}));
  PlanResponse resp =
      f.service->plan_resource_change(PlanRequest{"test_zone", prior, proposed, config, {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  // The set attribute is planned as configured: the CLI accepts nothing between.
  CHECK(resp.planned_state.get_attribute("records") == f.records({"2001:db8::1", "192.0.2.9"}));
  // The set block keeps its stored element and adds the new one, its uid to be computed.
  CHECK(resp.planned_state.get_attribute("target") ==
        f.targets({f.target("Web", 80, Value::string("u1")), f.target("api", 81, kUnknownText)}));
}

TEST_CASE("read: elements the API respells keep the stored spelling; real drift shows") {
  SetFixture f;
  const Value stored = f.object(f.records({"2001:DB8::1", "192.0.2.1"}),
                                f.targets({f.target("Web", 80, Value::string("u1"))}));
  f.logic->callbacks[Operation::Read] = [&](ResourceData& d) {
    Diagnostics diags = d.set("records", f.records({"2001:db8::1"}));
    diags.append(d.set("target", f.targets({f.target("web", 80, Value::string("u2"))})));
    return diags;
  };
  ReadResponse resp = f.service->read_resource(ReadRequest{"test_zone", stored, {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  // 192.0.2.1 is gone: that shows, and only that.
  CHECK(resp.new_state.get_attribute("records") == f.records({"2001:DB8::1"}));
  // The element keeps its arguments' spelling and takes what the provider computes now.
  CHECK(resp.new_state.get_attribute("target") ==
        f.targets({f.target("Web", 80, Value::string("u2"))}));
}

TEST_CASE("apply: elements the API respells keep the planned spelling") {
  SetFixture f;
  const Value config = f.config(f.records({"2001:DB8::1"}),
                                f.targets({f.target("Web", 80, Value::null(Type::string()))}));
  const Value planned = f.object(f.records({"2001:DB8::1"}),
                                 f.targets({f.target("Web", 80, kUnknownText)}), kUnknownText);
  f.logic->callbacks[Operation::Create] = [&](ResourceData& d) {
    d.set_id("z1");
    Diagnostics diags = d.set("records", f.records({"2001:db8::1"}));
    diags.append(d.set("target", f.targets({f.target("web", 80, Value::string("u1"))})));
    return diags;
  };
  ApplyResponse resp = f.service->apply_resource_change(
      ApplyRequest{"test_zone", Value::null(f.type), planned, config, {}});
  REQUIRE_MESSAGE(!resp.diagnostics.has_errors(), resp.diagnostics.items()[0].summary);
  CHECK(resp.new_state.get_attribute("records") == f.records({"2001:DB8::1"}));
  CHECK(resp.new_state.get_attribute("target") ==
        f.targets({f.target("Web", 80, Value::string("u1"))}));

  // An element whose normal form differs is a different element: the plan's promise is broken.
  f.logic->callbacks[Operation::Create] = [&](ResourceData& d) {
    d.set_id("z1");
    return d.set("records", f.records({"2001:db8::2"}));
  };
  ApplyResponse broken = f.service->apply_resource_change(
      ApplyRequest{"test_zone", Value::null(f.type), planned, config, {}});
  CHECK(broken.diagnostics.has_errors());
}

TEST_CASE("a failing normaliser is a diagnostic, and the set is left as it is") {
  SetFixture f;
  f.logic->normalisers["records"] = [](const Value&) -> Value {
    throw std::runtime_error("no normal form");
  };
  const Value stored = f.object(f.records({"A"}), f.targets({}));
  f.logic->callbacks[Operation::Read] = [&](ResourceData& d) {
    return d.set("records", f.records({"a"}));
  };
  ReadResponse resp = f.service->read_resource(ReadRequest{"test_zone", stored, {}});
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].detail == "no normal form");
  CHECK(resp.diagnostics.items()[0].path == AttributePath{AttributeName{"records"}});
}
