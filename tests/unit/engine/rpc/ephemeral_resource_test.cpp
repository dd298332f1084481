#include <doctest/doctest.h>

#include <chrono>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// ephemeral "test_token": role (required), ttl (optional, default 60), token (computed).
struct EphemeralFixture : ServiceFixture {
  Type type;

  EphemeralFixture() {
    Schema s;
    Attribute ttl = attribute("ttl", Type::number(), false, true, false);
    ttl.default_value = Value::number(60);
    Attribute role = attribute("role", Type::string(), true, false, false);
    role.has_validate = true;
    s.block.attributes = {role, ttl, attribute("token", Type::string(), false, false, true)};
    logic->declared.ephemeral_resources["test_token"] = s;
    type = serve().ephemeral_resources.at("test_token").block.implied_type();
  }
  Value config(Value role) const {
    return Value::object(type, {{"role", std::move(role)},
                                {"ttl", Value::null(Type::number())},
                                {"token", Value::null(Type::string())}});
  }
  OpenEphemeralResponse open(const Value& config) const {
    return service->open_ephemeral_resource(OpenEphemeralRequest{"test_token", config});
  }
};

}  // namespace

TEST_CASE("an ephemeral resource has no id, is listed, and is validated like the others") {
  EphemeralFixture f;
  CHECK(f.type.attributes().count("id") == 0);
  CHECK(f.service->get_metadata().ephemeral_resources == std::vector<std::string>{"test_token"});
  f.logic->validators["role"] = [](const Value& v) {
    Diagnostics diags;
    if (v == Value::string("nobody")) diags.error("nobody may log in");
    return diags;
  };
  CHECK(f.service
            ->validate_ephemeral_resource_config(
                ValidateRequest{"test_token", f.config(Value::string("nobody"))})
            .has_errors());
  CHECK_FALSE(f.service
                  ->validate_ephemeral_resource_config(
                      ValidateRequest{"test_token", f.config(Value::string("writer"))})
                  .has_errors());
  const Diagnostics unknown_type = f.service->validate_ephemeral_resource_config(
      ValidateRequest{"test_other", f.config(Value::string("r"))});
  CHECK(unknown_type.has_errors());
}

TEST_CASE("open returns the values with defaults, the private data and the renewal time") {
  EphemeralFixture f;
  const auto before = std::chrono::system_clock::now();
  f.logic->callbacks[Operation::Open] = [](ResourceData& d) {
    CHECK(d.get("ttl") == Value::number(60));
    REQUIRE(d.renewal_allowed());
    d.set_private_data(R"({"lease":"L1"})");
    d.set_renew_at(std::chrono::system_clock::now() + std::chrono::seconds(30));
    return d.set("token", Value::string("secret"));
  };
  const OpenEphemeralResponse resp = f.open(f.config(Value::string("writer")));
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  const Value result = resp.result;
  CHECK(result.get_attribute("token") == Value::string("secret"));
  CHECK(result.get_attribute("ttl") == Value::number(60));
  CHECK(resp.private_data == R"({"lease":"L1"})");
  REQUIRE(resp.renew_at.has_value());
  CHECK(*resp.renew_at >= before + std::chrono::seconds(29));
}

TEST_CASE("open leaves computed values it did not set null, never unknown") {
  EphemeralFixture f;
  const OpenEphemeralResponse resp = f.open(f.config(Value::string("writer")));
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  const Value result = resp.result;
  CHECK(result.is_wholly_known());
  CHECK(result.get_attribute("token").is_null());
  CHECK_FALSE(resp.renew_at.has_value());
}

TEST_CASE("open refuses a configuration that is not known yet, without calling the logic") {
  EphemeralFixture f;
  bool called = false;
  f.logic->callbacks[Operation::Open] = [&](ResourceData&) {
    called = true;
    return Diagnostics{};
  };
  const OpenEphemeralResponse resp = f.open(f.config(Value::unknown(Type::string())));
  CHECK(resp.diagnostics.has_errors());
  CHECK_FALSE(called);
  CHECK(resp.result.is_null());
}

TEST_CASE("a failed open returns no value") {
  EphemeralFixture f;
  f.logic->callbacks[Operation::Open] = [](ResourceData& d) {
    d.set("token", Value::string("half-made"));
    Diagnostics diags;
    diags.error("cannot log in");
    return diags;
  };
  const OpenEphemeralResponse resp = f.open(f.config(Value::string("writer")));
  CHECK(resp.diagnostics.has_errors());
  CHECK(resp.result.is_null());
}

TEST_CASE("renew sees the private data and may replace it; a failed renew keeps it") {
  EphemeralFixture f;
  f.logic->callbacks[Operation::Renew] = [](ResourceData& d) {
    CHECK(d.private_data() == "v1");
    CHECK(d.get("token").is_null());
    d.set_private_data("v2");
    d.set_renew_at(std::chrono::system_clock::now());
    return Diagnostics{};
  };
  RenewEphemeralResponse renewed =
      f.service->renew_ephemeral_resource(RenewEphemeralRequest{"test_token", "v1"});
  REQUIRE_FALSE(renewed.diagnostics.has_errors());
  CHECK(renewed.private_data == "v2");
  CHECK(renewed.renew_at.has_value());

  f.logic->callbacks[Operation::Renew] = [](ResourceData& d) {
    d.set_private_data("garbled");
    d.set_renew_at(std::chrono::system_clock::now());
    Diagnostics diags;
    diags.error("lease ended");
    return diags;
  };
  renewed = f.service->renew_ephemeral_resource(RenewEphemeralRequest{"test_token", "v1"});
  CHECK(renewed.diagnostics.has_errors());
  CHECK(renewed.private_data == "v1");
  CHECK_FALSE(renewed.renew_at.has_value());
}

TEST_CASE("close gets the private data and reports what went wrong") {
  EphemeralFixture f;
  std::string seen;
  f.logic->callbacks[Operation::Close] = [&](ResourceData& d) {
    seen = d.private_data();
    CHECK_FALSE(d.renewal_allowed());
    Diagnostics diags;
    diags.error("revoke failed");
    return diags;
  };
  const Diagnostics diags =
      f.service->close_ephemeral_resource(RenewEphemeralRequest{"test_token", "v3"});
  CHECK(seen == "v3");
  CHECK(diags.has_errors());
}

TEST_CASE("a resource's private data reaches read and apply and comes back from them") {
  auto logic = std::make_shared<ScriptedLogic>();
  logic->declared.resources["test_file"] = file_schema();
  ProviderService service(logic);
  const Type type =
      service.get_provider_schema().schema->resources.at("test_file").block.implied_type();
  const Value state = Value::object(type, {{"id", Value::string("/a")},
                                           {"path", Value::string("/a")},
                                           {"content", Value::string("x")},
                                           {"sha", Value::string("abc")},
                                           {"mode", Value::string("0644")}});
  logic->callbacks[Operation::Read] = [](ResourceData& d) {
    CHECK(d.private_data() == "stored");
    d.set_private_data("read");
    return Diagnostics{};
  };
  const ReadResponse read = service.read_resource(ReadRequest{"test_file", state, "stored"});
  CHECK(read.private_data == "read");

  logic->callbacks[Operation::Update] = [](ResourceData& d) {
    CHECK(d.private_data() == "planned");
    d.set_private_data("updated");
    Diagnostics diags;
    diags.error("half done");
    return diags;
  };
  const Value planned = state.with_attribute("content", Value::string("y"));
  const ApplyResponse applied =
      service.apply_resource_change(ApplyRequest{"test_file", state, planned, planned, "planned"});
  CHECK(applied.diagnostics.has_errors());
  // What the failed call recorded is kept: it describes the object it left behind.
  CHECK(applied.private_data == "updated");
}
