// The RPCs about the provider as a whole (provider_service.cpp): metadata, schema, validation of
// each kind of configuration, configure and stop. What the schema's rules leave out is
// declared_schema_test.cpp's; write-only values are features/write_only_test.cpp's.
#include "host/engine/rpc/provider_service.h"

#include <doctest/doctest.h>

#include <stdexcept>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// A provider block of an endpoint (optional, default "https://api.example") and a token
// (optional, sensitive).
Schema provider_block() {
  Schema s;
  Attribute endpoint = attribute("endpoint", Type::string(), false, true, false);
  endpoint.default_value = Value::string("https://api.example");
  Attribute token = attribute("token", Type::string(), false, true, false);
  token.sensitive = true;
  s.block.attributes = {endpoint, token};
  return s;
}

struct WholeProvider : ServiceFixture {
  Type provider_type;
  WholeProvider() {
    logic->declared.provider = provider_block();
    Schema file = file_schema();
    file.block.attributes[0].has_validate = true;  // path, judged by the test's validator
    logic->declared.resources["test_file"] = file;
    Schema old = file_schema();
    old.block.deprecated = "use test_file";
    logic->declared.resources["test_old"] = old;
    logic->declared.data_sources["test_lookup"] = file_schema();
    provider_type = serve().provider.block.implied_type();
  }
  Value provider_config(const char* token) const {
    return Value::object(provider_type, {{"endpoint", Value::null(Type::string())},
                                         {"token", Value::string(token)}});
  }
};

}  // namespace

TEST_CASE("metadata names every type the provider serves, and its capabilities") {
  WholeProvider f;
  const GetMetadataResponse plain = f.service->get_metadata();
  CHECK(plain.resources == std::vector<std::string>{"test_file", "test_old"});
  CHECK(plain.data_sources == std::vector<std::string>{"test_lookup"});
  CHECK_FALSE(plain.capabilities.move_resource_state);
  CHECK_FALSE(plain.capabilities.plan_destroy);
  CHECK(plain.capabilities.generate_resource_config);

  // One resource that moves states, or checks destroys, gives the whole provider the capability.
  f.logic->declared.resources["test_file"].moves_state = true;
  f.logic->declared.resources["test_old"].checks_destroy = true;
  f.serve();
  const GetMetadataResponse capable = f.service->get_metadata();
  CHECK(capable.capabilities.move_resource_state);
  CHECK(capable.capabilities.plan_destroy);
  CHECK(f.service->get_provider_schema().capabilities.move_resource_state);
}

TEST_CASE("each kind of configuration is validated against its own types") {
  WholeProvider f;
  const Type file =
      f.service->get_provider_schema().schema->resources.at("test_file").block.implied_type();
  const Value config = Value::object(file, {{"path", Value::string("/a")}});
  CHECK(f.service->validate_resource_config({"test_file", config}).empty());
  CHECK(f.service->validate_data_source_config({"test_lookup", config}).empty());

  const Diagnostics unknown = f.service->validate_data_source_config({"test_file", config});
  REQUIRE(unknown.has_errors());
  CHECK(unknown.items()[0].summary == "Unknown data source type \"test_file\"");
  const Diagnostics action = f.service->validate_action_config({"test_file", config});
  REQUIRE(action.has_errors());
  CHECK(action.items()[0].summary == "Unknown action type \"test_file\"");

  // The script's validator of an argument judges its value; its error is at the argument.
  f.logic->validators["path"] = [](const Value& value) {
    Diagnostics d;
    if (value.as_string() != "/") d.error("only / is served");
    return d;
  };
  const Diagnostics refused = f.service->validate_resource_config({"test_file", config});
  REQUIRE(refused.has_errors());
  CHECK(refused.items()[0].summary == "only / is served");
  CHECK(f.logic->validated == std::vector<std::string>{"path=\"/a\"", "path=\"/a\""});
}

TEST_CASE("a deprecated type still validates, and each configuration of it says so") {
  WholeProvider f;
  const Type old =
      f.service->get_provider_schema().schema->resources.at("test_old").block.implied_type();
  const Diagnostics diags = f.service->validate_resource_config(
      {"test_old", Value::object(old, {{"path", Value::string("/a")}})});
  CHECK_FALSE(diags.has_errors());
  REQUIRE(diags.items().size() == 1);
  CHECK(diags.items()[0].severity == Severity::Warning);
  CHECK(diags.items()[0].summary == "test_old is deprecated");
  CHECK(diags.items()[0].detail == "use test_file");
}

TEST_CASE("configure gives the logic the configuration with its defaults") {
  WholeProvider f;
  REQUIRE(f.service->configure_provider({"", f.provider_config("s3cret")}).empty());
  CHECK(f.logic->configured_with.get_attribute("endpoint") == Value::string("https://api.example"));
  CHECK(f.logic->configured_with.get_attribute("token") == Value::string("s3cret"));
}

TEST_CASE("a configure that fails, or throws, is an error saying the configuration failed") {
  WholeProvider f;
  f.logic->configurer = [](const Value&) -> Diagnostics {
    throw std::runtime_error("no route to api.example");
  };
  const Diagnostics thrown = f.service->configure_provider({"", f.provider_config("t")});
  REQUIRE(thrown.has_errors());
  CHECK(thrown.items()[0].summary == "Provider configuration failed");
  CHECK(thrown.items()[0].detail == "no route to api.example");

  f.logic->configurer = [](const Value&) {
    Diagnostics d;
    d.error("the token is refused");
    return d;
  };
  const Diagnostics refused = f.service->configure_provider({"", f.provider_config("t")});
  REQUIRE(refused.has_errors());
  CHECK(refused.items()[0].summary == "the token is refused");
}

TEST_CASE(
    "a configuration not known yet leaves the provider unconfigured where deferrals are "
    "allowed") {
  WholeProvider f;
  const Value unknown = Value::object(f.provider_type, {{"endpoint", Value::null(Type::string())},
                                                        {"token", Value::unknown(Type::string())}});
  ConfigureRequest req{"", unknown};
  req.deferral_allowed = true;
  CHECK(f.service->configure_provider(req).empty());
  CHECK(f.logic->configured_with.is_null());  // configure never ran on half a configuration
  // Known again: configured.
  CHECK(f.service->configure_provider({"", f.provider_config("t")}).empty());
  CHECK(f.logic->configured_with.get_attribute("token") == Value::string("t"));
}

TEST_CASE("stop reaches the logic, every time it is asked") {
  WholeProvider f;
  f.service->stop_provider();
  f.service->stop_provider();
  CHECK(f.logic->stops == 2);
}

TEST_CASE("every operation has the name scripts know it by") {
  CHECK(std::string(operation_name(Operation::Create)) == "create");
  CHECK(std::string(operation_name(Operation::Read)) == "read");
  CHECK(std::string(operation_name(Operation::ReadData)) == "read");
  CHECK(std::string(operation_name(Operation::Update)) == "update");
  CHECK(std::string(operation_name(Operation::Delete)) == "delete");
  CHECK(std::string(operation_name(Operation::CustomizeDiff)) == "customize_diff");
  CHECK(std::string(operation_name(Operation::Import)) == "import");
  CHECK(std::string(operation_name(Operation::Open)) == "open");
  CHECK(std::string(operation_name(Operation::Renew)) == "renew");
  CHECK(std::string(operation_name(Operation::Close)) == "close");
  CHECK(std::string(operation_name(Operation::PlanDestroy)) == "plan_destroy");
}
