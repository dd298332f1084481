// UpgradeResourceState: stored JSON state into the current schema, through the logic's upgrade
// functions when the state is older.
#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

struct UpgradeFixture : ServiceFixture {
  Type type;

  explicit UpgradeFixture(int64_t version) {
    Schema s = file_schema();
    s.version = version;
    logic->declared.resources["test_file"] = s;
    type = serve().resources.at("test_file").block.implied_type();
  }
  UpgradeResponse upgrade(int64_t version, const std::string& json) const {
    UpgradeRequest req;
    req.type_name = "test_file";
    req.version = version;
    req.raw_state_json = json;
    return service->upgrade_resource_state(req);
  }
};

}  // namespace

TEST_CASE("a state of the current version is decoded as it is, dropping attributes now gone") {
  UpgradeFixture f(1);
  f.logic->upgrader = [](int64_t, const std::string&, const Type&, Diagnostics&) {
    FAIL("no upgrade for a current state");
    return std::optional<Value>();
  };
  UpgradeResponse resp = f.upgrade(1, R"({"id":"a","path":"a","old_field":"x"})");
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  Value v = resp.upgraded_state;
  CHECK(v.get_attribute("path") == Value::string("a"));
}

TEST_CASE("an older state goes through the logic's upgrade and comes back in its result") {
  UpgradeFixture f(2);
  int64_t seen_from = -1;
  f.logic->upgrader = [&](int64_t from, const std::string& raw, const Type& t, Diagnostics&) {
    seen_from = from;
    CHECK(raw == R"({"id":"a","file":"a"})");
    return std::optional<Value>(
        Value::object(t, {{"id", Value::string("a")}, {"path", Value::string("a")}}));
  };
  UpgradeResponse resp = f.upgrade(0, R"({"id":"a","file":"a"})");
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(seen_from == 0);
  CHECK(resp.upgraded_state.get_attribute("path") == Value::string("a"));
}

TEST_CASE("an older state without upgrade functions is read as it is") {
  UpgradeFixture f(3);
  UpgradeResponse resp = f.upgrade(1, R"({"id":"a","path":"a"})");
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.upgraded_state.get_attribute("id") == Value::string("a"));
}

TEST_CASE("a failed upgrade returns no state, so the CLI keeps the stored one") {
  UpgradeFixture f(1);
  f.logic->upgrader = [](int64_t, const std::string&, const Type&, Diagnostics& diags) {
    diags.error("upgrade refused");
    return std::optional<Value>();
  };
  UpgradeResponse resp = f.upgrade(0, R"({"id":"a"})");
  CHECK(resp.diagnostics.has_errors());
  CHECK(resp.upgraded_state.is_null());
}

TEST_CASE("a state from a newer schema version is refused") {
  UpgradeFixture f(1);
  UpgradeResponse resp = f.upgrade(2, R"({"id":"a"})");
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].summary.find("newer provider") != std::string::npos);
}
