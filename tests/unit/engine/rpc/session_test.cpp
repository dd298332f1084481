#include "host/engine/rpc/session.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// test_file with a "mode" that has every plan hook: diff_suppress, requires_replace_if and a
// plan function (mode is optional and computed), and a customize_diff.
struct HookedFixture : ServiceFixture {
  Type type;
  int customized = 0;

  HookedFixture() {
    Schema schema = file_schema();
    for (Attribute& a : schema.block.attributes) {
      if (a.name != "mode") continue;
      a.has_equivalence = true;
      a.has_requires_replace_if = true;
      a.has_plan_function = true;
    }
    schema.customizes_diff = true;
    logic->declared.resources["test_file"] = schema;
    logic->callbacks[Operation::CustomizeDiff] = [this](ResourceData&) {
      ++customized;
      return Diagnostics{};
    };
    type = serve().resources.at("test_file").block.implied_type();
  }
  Value file(const char* mode) const {
    return Value::object(type, {{"id", Value::string("/a")},
                                {"path", Value::string("/a")},
                                {"content", Value::string("x")},
                                {"sha", Value::string("abc")},
                                {"mode", Value::string(mode)}});
  }
  PlanResponse plan(const Value& prior, const Value& config) const {
    return service->plan_resource_change(PlanRequest{"test_file", prior, config, config, {}});
  }
};

}  // namespace

TEST_CASE("every hook of one plan runs in one session") {
  HookedFixture f;
  const PlanResponse resp = f.plan(f.file("0644"), f.file("0600"));
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  // Each hook was asked...
  CHECK(f.logic->compared.size() == 1);
  CHECK(f.logic->asked_replace.size() == 1);
  CHECK(f.logic->planned_resources.size() == 1);
  CHECK(f.customized == 1);
  // ...through the one session the RPC opened.
  CHECK(f.logic->sessions_opened == 1);
}

TEST_CASE("a hook that throws is an error naming the hook and its attribute") {
  HookedFixture f;
  f.logic->replacers["mode"] = [](const Value&, const Value&) -> bool {
    throw std::runtime_error("the API is down");
  };
  const PlanResponse resp = f.plan(f.file("0644"), f.file("0600"));
  REQUIRE(resp.diagnostics.items().size() == 1);
  const Diagnostic& error = resp.diagnostics.items()[0];
  CHECK(error.summary == "test_file: requires_replace_if of \"mode\" failed");
  CHECK(error.detail == "the API is down");
  CHECK(error.path == AttributePath{AttributeName{"mode"}});
}

TEST_CASE("a session's hooks turn what a logic throws into diagnostics, once, for every kind") {
  ScriptedLogic logic;
  logic.declared.resources["test_file"] = file_schema();
  logic.callbacks[Operation::Read] = [](ResourceData&) -> Diagnostics {
    throw std::runtime_error("no state left");
  };
  logic.upgrader = [](int64_t, const std::string&, const Type&,
                      Diagnostics&) -> std::optional<Value> { throw std::bad_alloc(); };
  Session session(logic);
  const Type type = file_schema().block.implied_type();
  ResourceData d(logic.declared.resources["test_file"], Value::null(type), Value::null(type),
                 Value::null(type));
  const Diagnostics read = session.call(Operation::Read, "test_file", d);
  REQUIRE(read.items().size() == 1);
  CHECK(read.items()[0].summary == "test_file: read failed");
  CHECK(read.items()[0].detail == "no state left");

  Diagnostics diags;
  CHECK_FALSE(session.upgrade_state("test_file", 0, "{}", type, diags).has_value());
  REQUIRE(diags.items().size() == 1);
  CHECK(diags.items()[0].summary == "Upgrading the state of test_file failed");

  const FunctionOutcome outcome = session.call_function("nothing", Function{}, {});
  REQUIRE(outcome.failure.has_value());
  CHECK(outcome.failure->text == "no such function");
  CHECK(logic.sessions_opened == 1);
}

TEST_CASE("a session holds its RPC's secrets: its hooks see them, and they end with it") {
  auto logic = std::make_shared<ScriptedLogic>();
  Schema schema = file_schema();
  for (Attribute& a : schema.block.attributes) a.sensitive = a.name == "content";
  logic->declared.resources["test_file"] = schema;
  std::vector<std::string> seen_by_create;
  std::vector<std::string> seen_by_read;
  logic->callbacks[Operation::Create] = [&](ResourceData& d) {
    seen_by_create = secrets_in_scope();
    d.set_id("/a");
    return d.set("content", Value::string("made-by-create"));
  };
  logic->callbacks[Operation::Read] = [&](ResourceData&) {
    seen_by_read = secrets_in_scope();
    return Diagnostics{};
  };
  const Type type = schema.block.implied_type();
  {
    Session session(*logic, std::make_shared<const std::vector<std::string>>(
                                std::vector<std::string>{"provider-token"}));
    ResourceData created(schema, Value::null(type), Value::null(type), Value::null(type));
    CHECK_FALSE(session.call(Operation::Create, "test_file", created).has_errors());
    ResourceData read(schema, created.result(), Value::null(type), Value::null(type));
    CHECK_FALSE(session.call(Operation::Read, "test_file", read).has_errors());
  }
  const auto has = [](const std::vector<std::string>& secrets, const std::string& secret) {
    return std::find(secrets.begin(), secrets.end(), secret) != secrets.end();
  };
  CHECK(has(seen_by_create, "provider-token"));
  CHECK_FALSE(has(seen_by_create, "made-by-create"));  // not made yet
  CHECK(has(seen_by_read, "provider-token"));
  CHECK(has(seen_by_read, "made-by-create"));  // what create left sensitive, for the next hook
  CHECK(secrets_in_scope().empty());
}
