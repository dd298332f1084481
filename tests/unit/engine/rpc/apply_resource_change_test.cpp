#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

struct ApplyFixture : FileServiceFixture {
  using FileServiceFixture::FileServiceFixture;
  ApplyResponse apply(const Value& prior, const Value& planned, const Value& config) const {
    return service->apply_resource_change(ApplyRequest{"test_file", prior, planned, config, {}});
  }
  Value planned_create() const {
    return object({{"id", Value::unknown(Type::string())},
                   {"path", Value::string("/a")},
                   {"content", Value::string("x")},
                   {"sha", Value::unknown(Type::string())},
                   {"mode", Value::unknown(Type::string())}});
  }
};

}  // namespace

TEST_CASE("create that sets an id saves the state with every unknown made known") {
  ApplyFixture f;
  f.logic->callbacks[Operation::Create] = [](ResourceData& d) {
    d.set_id("/a");
    return d.set("sha", Value::string("123"));
  };
  ApplyResponse resp = f.apply(Value::null(f.type), f.planned_create(), f.planned_create());
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  Value state = resp.new_state;
  CHECK(state.get_attribute("id") == Value::string("/a"));
  CHECK(state.get_attribute("sha") == Value::string("123"));
  CHECK(state.get_attribute("mode").is_null());
  CHECK(state.is_wholly_known());
}

TEST_CASE("create that fails before setting an id saves nothing") {
  ApplyFixture f;
  f.logic->callbacks[Operation::Create] = [](ResourceData&) { return failure_of("boom"); };
  ApplyResponse resp = f.apply(Value::null(f.type), f.planned_create(), f.planned_create());
  CHECK(resp.diagnostics.has_errors());
  CHECK(resp.new_state.is_null());
}

TEST_CASE("create that fails after setting an id saves the state and reports the error") {
  ApplyFixture f;
  f.logic->callbacks[Operation::Create] = [](ResourceData& d) {
    d.set_id("/a");
    return failure_of("boom after id");
  };
  ApplyResponse resp = f.apply(Value::null(f.type), f.planned_create(), f.planned_create());
  CHECK(resp.diagnostics.has_errors());
  Value state = resp.new_state;
  REQUIRE_FALSE(state.is_null());
  CHECK(state.get_attribute("id") == Value::string("/a"));
}

TEST_CASE("create that succeeds without an id is an error and saves nothing") {
  ApplyFixture f;
  ApplyResponse resp = f.apply(Value::null(f.type), f.planned_create(), f.planned_create());
  CHECK(resp.diagnostics.has_errors());
  CHECK(resp.new_state.is_null());
}

TEST_CASE("update that fails still saves the new state") {
  ApplyFixture f;
  f.logic->callbacks[Operation::Update] = [](ResourceData& d) {
    CHECK(d.has_change("content"));
    auto [old_value, new_value] = d.get_change("content");
    CHECK(old_value == Value::string("x"));
    CHECK(new_value == Value::string("y"));
    return failure_of("half done");
  };
  Value planned = f.existing()
                      .with_attribute("content", Value::string("y"))
                      .with_attribute("sha", Value::unknown(Type::string()));
  ApplyResponse resp = f.apply(f.existing(), planned, planned);
  CHECK(resp.diagnostics.has_errors());
  Value state = resp.new_state;
  CHECK(state.get_attribute("content") == Value::string("y"));
  CHECK(state.get_attribute("id") == Value::string("/a"));
}

TEST_CASE("update that fails in partial mode saves only the parts marked done") {
  ApplyFixture f;
  f.logic->callbacks[Operation::Update] = [](ResourceData& d) {
    d.set_partial(true);
    d.mark_partial("content");                               // the first API call went through
    Diagnostics diags = d.set("sha", Value::string("new"));  // set, but not marked
    diags.error("the second API call failed");
    return diags;
  };
  Value planned = f.existing()
                      .with_attribute("content", Value::string("y"))
                      .with_attribute("mode", Value::string("0600"))
                      .with_attribute("sha", Value::unknown(Type::string()));
  ApplyResponse resp = f.apply(f.existing(), planned, planned);
  CHECK(resp.diagnostics.has_errors());
  Value state = resp.new_state;
  CHECK(state.get_attribute("content") == Value::string("y"));
  CHECK(state.get_attribute("mode") == Value::string("0644"));
  CHECK(state.get_attribute("sha") == Value::string("abc"));
  CHECK(state.get_attribute("id") == Value::string("/a"));
}

TEST_CASE("update that succeeds saves everything, with partial mode left on or not") {
  ApplyFixture f;
  f.logic->callbacks[Operation::Update] = [](ResourceData& d) {
    d.set_partial(true);
    d.mark_partial("content");
    return d.set("sha", Value::string("new"));
  };
  Value planned = f.existing()
                      .with_attribute("content", Value::string("y"))
                      .with_attribute("mode", Value::string("0600"))
                      .with_attribute("sha", Value::unknown(Type::string()));
  ApplyResponse resp = f.apply(f.existing(), planned, planned);
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  Value state = resp.new_state;
  CHECK(state.get_attribute("mode") == Value::string("0600"));
  CHECK(state.get_attribute("sha") == Value::string("new"));
}

TEST_CASE("delete that succeeds removes the state") {
  ApplyFixture f;
  bool deleted = false;
  f.logic->callbacks[Operation::Delete] = [&](ResourceData& d) {
    CHECK(d.id() == "/a");
    deleted = true;
    return Diagnostics{};
  };
  ApplyResponse resp = f.apply(f.existing(), Value::null(f.type), Value::null(f.type));
  CHECK(deleted);
  CHECK_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.new_state.is_null());
}

TEST_CASE("delete that fails keeps the prior state") {
  ApplyFixture f;
  f.logic->callbacks[Operation::Delete] = [](ResourceData&) { return failure_of("busy"); };
  ApplyResponse resp = f.apply(f.existing(), Value::null(f.type), Value::null(f.type));
  CHECK(resp.diagnostics.has_errors());
  CHECK(resp.new_state == f.existing());
}

TEST_CASE("a function that changes a planned value gets an error naming the attribute") {
  ApplyFixture f;
  f.logic->callbacks[Operation::Create] = [](ResourceData& d) {
    d.set_id("/a");
    return d.set("content", Value::string("not what was planned"));
  };
  ApplyResponse resp = f.apply(Value::null(f.type), f.planned_create(), f.planned_create());
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].path == AttributePath{AttributeName{"content"}});
}
