// ValidateResourceConfig's rules: each one specified on a small schema, without Lua or gRPC.
#include "host/engine/rules/config_validation.h"

#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// resource "test_db": engine, version, snapshot, source, port, user, password (all optional);
// replica: a list block (max 2) of { zone (optional) }.
struct DbFixture {
  std::shared_ptr<ScriptedLogic> logic = std::make_shared<ScriptedLogic>();
  Schema schema;

  DbFixture() {
    for (const char* name : {"engine", "version", "snapshot", "source", "user", "password"}) {
      schema.block.attributes.push_back(attribute(name, Type::string(), false, true, false));
    }
    schema.block.attributes.push_back(attribute("port", Type::number(), false, true, false));
    NestedBlock replica;
    replica.type_name = "replica";
    replica.max_items = 2;
    replica.block.attributes = {attribute("zone", Type::string(), false, true, false)};
    schema.block.blocks = {replica};
  }
  Attribute& attr(const std::string& name) {
    for (auto& a : schema.block.attributes) {
      if (a.name == name) return a;
    }
    for (auto& a : schema.block.blocks[0].block.attributes) {
      if ("replica." + a.name == name) return a;
    }
    FAIL("no attribute " << name);
    throw;
  }
  Diagnostics validate(Value::Object attrs) {
    logic->declared.resources["test_db"] = schema;
    ProviderService service(logic);
    Type type = service.get_provider_schema().schema->resources.at("test_db").block.implied_type();
    return service.validate_resource_config({"test_db", Value::object(type, attrs)});
  }
  Value replicas(std::vector<const char*> zones) const {
    Type t = schema.block.blocks[0].block.implied_type();
    Value::List out;
    for (const char* z : zones) out.push_back(Value::object(t, {{"zone", Value::string(z)}}));
    return Value::list(t, out);
  }
};

std::string text(const Diagnostics& diags) {
  std::string out;
  for (const auto& d : diags.items()) {
    out += (d.severity == Severity::Error ? "E " : "W ") + d.summary + " | " + d.detail + " @" +
           path_to_string(d.path) + "\n";
  }
  return out;
}

Value s(const char* v) {
  return Value::string(v);
}

}  // namespace

TEST_CASE("conflicts_with: setting both is an error at the attribute that declares it") {
  DbFixture f;
  f.attr("snapshot").conflicts_with = {"source"};
  CHECK(text(f.validate({{"snapshot", s("snap-1")}})).empty());
  Diagnostics d = f.validate({{"snapshot", s("snap-1")}, {"source", s("db-2")}});
  CHECK(text(d) ==
        "E Conflicting configuration arguments | \"snapshot\": conflicts with source "
        "@snapshot\n");
}

TEST_CASE("an unknown value is not judged until it is known") {
  DbFixture f;
  f.attr("snapshot").conflicts_with = {"source"};
  f.attr("user").exactly_one_of = {"user", "password"};
  f.attr("port").has_validate = true;
  Diagnostics d = f.validate({{"snapshot", s("snap-1")},
                              {"source", Value::unknown(Type::string())},
                              {"user", Value::unknown(Type::string())},
                              {"port", Value::unknown(Type::number())}});
  CHECK(text(d).empty());
  CHECK(f.logic->validated.empty());
}

TEST_CASE("two set and one unknown in an exactly_one_of group is already an error") {
  DbFixture f;
  f.attr("engine").exactly_one_of = {"engine", "snapshot", "source"};
  Diagnostics d = f.validate(
      {{"engine", s("pg")}, {"snapshot", s("s")}, {"source", Value::unknown(Type::string())}});
  CHECK(text(d).find("only one of") != std::string::npos);
}

TEST_CASE("a group always includes the attribute that declares it") {
  DbFixture f;
  f.attr("engine").exactly_one_of = {"snapshot"};
  CHECK(text(f.validate({{"engine", s("pg")}})).empty());
  CHECK(text(f.validate({{"engine", s("pg")}, {"snapshot", s("x")}})).find("only one of") !=
        std::string::npos);
}

TEST_CASE("an absent block (an empty list) does not count as set") {
  DbFixture f;
  f.attr("engine").conflicts_with = {"replica"};
  f.attr("snapshot").at_least_one_of = {"snapshot", "replica"};
  CHECK(text(f.validate({{"engine", s("pg")}, {"snapshot", s("x")}, {"replica", f.replicas({})}}))
            .empty());
  CHECK(text(f.validate({{"engine", s("pg")}, {"replica", f.replicas({"a"})}}))
            .find("conflicts with replica") != std::string::npos);
  CHECK(text(f.validate({{"replica", f.replicas({})}})).find("at least one of") !=
        std::string::npos);
}

TEST_CASE("required_with: an attribute needs the others it names") {
  DbFixture f;
  f.attr("user").required_with = {"user", "password"};
  CHECK(text(f.validate({{"user", s("admin")}, {"password", s("x")}})).empty());
  CHECK(text(f.validate({})).empty());
  CHECK(text(f.validate({{"user", s("admin")}})) ==
        "E Missing required argument | \"user\": all of \"user\", \"password\" must be "
        "specified @user\n");
}

TEST_CASE("exactly_one_of and at_least_one_of are reported once per group") {
  DbFixture f;
  f.attr("engine").exactly_one_of = {"engine", "snapshot"};
  f.attr("snapshot").exactly_one_of = {"snapshot", "engine"};
  CHECK(text(f.validate({{"engine", s("pg")}})).empty());
  CHECK(text(f.validate({{"engine", s("pg")}, {"snapshot", s("s")}})) ==
        "E Invalid combination of arguments | only one of \"engine\", \"snapshot\" can be "
        "specified, but 2 were @engine\n");
  CHECK(text(f.validate({})) ==
        "E Invalid combination of arguments | exactly one of \"engine\", \"snapshot\" must be "
        "specified @engine\n");

  DbFixture g;
  g.attr("version").at_least_one_of = {"version", "source"};
  CHECK(text(g.validate({{"source", s("x")}, {"version", s("1")}})).empty());
  CHECK(text(g.validate({})) ==
        "E Invalid combination of arguments | at least one of \"version\", \"source\" must be "
        "specified @version\n");
}

TEST_CASE("deprecated warns and removed fails, only when the argument is set") {
  DbFixture f;
  f.attr("version").deprecated = "use engine";
  f.attr("source").removed = "source was removed in 2.0; use snapshot";
  CHECK(text(f.validate({})).empty());
  CHECK(text(f.validate({{"version", s("1")}, {"source", s("x")}})) ==
        "W Argument is deprecated | use engine @version\nE Argument \"source\" has been "
        "removed | source was removed in 2.0; use snapshot @source\n");
}

TEST_CASE("validate functions see known values by path, inside blocks too") {
  DbFixture f;
  f.attr("port").has_validate = true;
  f.attr("replica.zone").has_validate = true;
  f.logic->validators["replica[1].zone"] = [](const Value& v) {
    Diagnostics d;
    d.error("zone " + v.as_string() + " does not exist");
    return d;
  };
  Diagnostics d = f.validate({{"port", Value::number(5432)}, {"replica", f.replicas({"a", "zz"})}});
  CHECK(f.logic->validated ==
        std::vector<std::string>{"port=5432", "replica[0].zone=\"a\"", "replica[1].zone=\"zz\""});
  CHECK(text(d) == "E zone zz does not exist |  @replica[1].zone\n");
  // Each validator is judged in the whole configuration; there is no state yet.
  REQUIRE(f.logic->arounds.size() == 3);
  for (const auto& around : f.logic->arounds) {
    CHECK(around.hook == "validate");
    CHECK(around.resource.get_attribute("port") == Value::number(5432));
    CHECK(around.config == around.resource);
    CHECK(around.prior.is_null());
  }
}

TEST_CASE("a block count outside min_items and max_items is an error naming the block") {
  DbFixture f;
  f.schema.block.blocks[0].min_items = 1;
  CHECK(text(f.validate({{"replica", f.replicas({"a"})}})).empty());
  CHECK(text(f.validate({{"replica", f.replicas({})}})) ==
        "E Not enough \"replica\" blocks | at least 1 \"replica\" blocks are required, 0 given "
        "@replica\n");
  CHECK(text(f.validate({{"replica", f.replicas({"a", "b", "c"})}})) ==
        "E Too many \"replica\" blocks | at most 2 \"replica\" blocks are allowed, 3 given "
        "@replica\n");
}

TEST_CASE("addresses reach into lists, maps and objects; a wrong address reads as null") {
  DbFixture f;
  Type t = f.schema.block.implied_type();
  Value v = Value::object(t, {{"engine", s("pg")}, {"replica", f.replicas({"a", "b"})}});
  CHECK(value_at_address(v, "engine") == s("pg"));
  CHECK(value_at_address(v, "replica.1.zone") == s("b"));
  CHECK(value_at_address(v, "replica.2.zone").is_null());
  CHECK(value_at_address(v, "replica.x").is_null());
  CHECK(value_at_address(v, "nothing.here").is_null());
}
