// tfplugin5.Provider as the CLI calls it over gRPC: each RPC's request reaches the engine with
// what the CLI sent, and the engine's answer comes back in the protocol's fields (values as
// msgpack, problems as diagnostics, deferrals, private data). An internal error is an answer
// too, which keeps what the CLI must not lose. Protocol 5 has no state stores: the every-kind
// logic's test_store is left out of what it serves.
#include "host/protocol/tfplugin/tfplugin5_server.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/engine/codec/msgpack_codec.h"
#include "host/protocol/proto/tfplugin5.grpc.pb.h"
#include "tests/unit/protocol/grpc_client.h"
#include "tests/unit/protocol/in_process_server.h"
#include "tests/unit/protocol/test_provider.h"

namespace luaform::protocol {
namespace {

namespace p5 = tfplugin5;
namespace pX = p5;
using ServerX = Tfplugin5Server;
#include "tfplugin_server_fixture.inc"
using Provider5 = ProviderX;

TEST_CASE("GetMetadata names every type protocol 5 can serve, each kind in its own list") {
  Provider5 f;
  const auto resp = f.call(&Stub::GetMetadata, p5::GetProviderMetadata::Request{});
  CHECK(resp.diagnostics().empty());
  REQUIRE(resp.resources_size() == 1);
  CHECK(resp.resources(0).type_name() == "test_file");
  REQUIRE(resp.data_sources_size() == 1);
  CHECK(resp.data_sources(0).type_name() == "test_stat");
  REQUIRE(resp.ephemeral_resources_size() == 1);
  CHECK(resp.ephemeral_resources(0).type_name() == "test_token");
  REQUIRE(resp.list_resources_size() == 1);
  CHECK(resp.list_resources(0).type_name() == "test_file");
  REQUIRE(resp.actions_size() == 1);
  CHECK(resp.actions(0).type_name() == "test_notify");
  REQUIRE(resp.functions_size() == 1);
  CHECK(resp.functions(0).name() == "double");
  // test_file takes the states of other types: the CLI may send it MoveResourceState.
  CHECK(resp.server_capabilities().move_resource_state());
  CHECK(resp.server_capabilities().get_provider_schema_optional());
}

TEST_CASE("GetSchema sends the schema of every type protocol 5 has, each kind in its own map") {
  Provider5 f;
  const auto resp = f.call(&Stub::GetSchema, p5::GetProviderSchema::Request{});
  CHECK(resp.diagnostics().empty());
  CHECK(has_attribute(resp.provider().block(), "endpoint"));
  REQUIRE(resp.resource_schemas().count("test_file") == 1);
  CHECK(has_attribute(resp.resource_schemas().at("test_file").block(), "path"));
  REQUIRE(resp.data_source_schemas().count("test_stat") == 1);
  CHECK(has_attribute(resp.data_source_schemas().at("test_stat").block(), "size"));
  REQUIRE(resp.ephemeral_resource_schemas().count("test_token") == 1);
  CHECK(has_attribute(resp.ephemeral_resource_schemas().at("test_token").block(), "scope"));
  REQUIRE(resp.list_resource_schemas().count("test_file") == 1);
  CHECK(has_attribute(resp.list_resource_schemas().at("test_file").block(), "prefix"));
  REQUIRE(resp.action_schemas().count("test_notify") == 1);
  CHECK(has_attribute(resp.action_schemas().at("test_notify").schema().block(), "message"));
  REQUIRE(resp.functions().count("double") == 1);
  CHECK(resp.functions().at("double").summary() == "Doubles a number");
  CHECK(resp.server_capabilities().move_resource_state());
}

TEST_CASE("a provider whose scripts failed to load says why in its metadata and its schema") {
  auto logic = testing::every_kind_logic();
  logic->loading.error("provider.lua:3: unexpected symbol near '}'");
  Provider5 f(logic);
  const auto metadata = f.call(&Stub::GetMetadata, p5::GetProviderMetadata::Request{});
  REQUIRE(metadata.diagnostics_size() == 1);
  CHECK(metadata.diagnostics(0).severity() == p5::Diagnostic::ERROR);
  CHECK(metadata.diagnostics(0).summary() == "provider.lua:3: unexpected symbol near '}'");
  const auto schema = f.call(&Stub::GetSchema, p5::GetProviderSchema::Request{});
  REQUIRE(schema.diagnostics_size() == 1);
  CHECK(schema.diagnostics(0).summary() == "provider.lua:3: unexpected symbol near '}'");
  // Without a provider block the CLI reports a missing schema instead of the error.
  CHECK(schema.has_provider());
}

TEST_CASE(
    "PrepareProviderConfig answers the validate functions' findings, and the config as sent") {
  Provider5 f;
  f.logic->validators["endpoint"] = [](const Value& v) {
    Diagnostics diags;
    if (!v.as_string().starts_with("https://")) diags.error("endpoint must use https");
    return diags;
  };
  p5::PrepareProviderConfig::Request req;
  *req.mutable_config() = packed(f.provider_config(text("http://example.com")));
  const auto refused = f.call(&Stub::PrepareProviderConfig, req);
  REQUIRE(refused.diagnostics_size() == 1);
  CHECK(refused.diagnostics(0).severity() == p5::Diagnostic::ERROR);
  CHECK(refused.diagnostics(0).summary() == "endpoint must use https");
  REQUIRE(refused.diagnostics(0).attribute().steps_size() == 1);
  CHECK(refused.diagnostics(0).attribute().steps(0).attribute_name() == "endpoint");

  *req.mutable_config() = packed(f.provider_config(text("https://example.com")));
  const auto prepared = f.call(&Stub::PrepareProviderConfig, req);
  CHECK(prepared.diagnostics().empty());
  // The CLI decodes prepared_config, then uses its own: the configuration goes back as it came.
  CHECK(prepared.prepared_config().msgpack() == req.config().msgpack());
}

TEST_CASE("ValidateResourceTypeConfig refuses a write-only value unless the CLI keeps it out") {
  auto logic = testing::every_kind_logic();
  engine::Attribute password =
      engine::testing::attribute("password", Type::string(), false, true, false);
  password.write_only = true;
  logic->declared.resources["test_file"].block.attributes.push_back(password);
  Provider5 f(logic);
  p5::ValidateResourceTypeConfig::Request req;
  req.set_type_name("test_file");
  *req.mutable_config() = packed(f.file({{"path", text("/a")}, {"password", text("s3cret")}}));
  const auto refused = f.call(&Stub::ValidateResourceTypeConfig, req);
  REQUIRE(refused.diagnostics_size() == 1);
  CHECK(refused.diagnostics(0).summary() == "Write-only attribute \"password\" needs a newer CLI");

  req.mutable_client_capabilities()->set_write_only_attributes_allowed(true);
  CHECK(f.call(&Stub::ValidateResourceTypeConfig, req).diagnostics().empty());
}

TEST_CASE("each kind's Validate RPC judges its own kind of type, and names it for one it lacks") {
  Provider5 f;
  const engine::ProviderSchema& s = f.schema();
  SUBCASE("ValidateResourceTypeConfig") {
    check_validation(f, &Stub::ValidateResourceTypeConfig, "test_file",
                     f.config_of(s.resources, "test_file", {{"path", text("/a")}}), "resource");
  }
  SUBCASE("ValidateDataSourceConfig") {
    check_validation(f, &Stub::ValidateDataSourceConfig, "test_stat",
                     f.config_of(s.data_sources, "test_stat", {{"path", text("/etc/hosts")}}),
                     "data source");
  }
  SUBCASE("ValidateEphemeralResourceConfig") {
    check_validation(f, &Stub::ValidateEphemeralResourceConfig, "test_token",
                     f.config_of(s.ephemeral_resources, "test_token", {{"scope", text("read")}}),
                     "ephemeral resource");
  }
  SUBCASE("ValidateListResourceConfig") {
    check_validation(f, &Stub::ValidateListResourceConfig, "test_file",
                     f.config_of(s.list_resources, "test_file", {{"prefix", text("a")}}),
                     "list resource");
  }
  SUBCASE("ValidateActionConfig") {
    check_validation(f, &Stub::ValidateActionConfig, "test_notify",
                     f.config_of(s.actions, "test_notify", {{"message", text("deployed")}}),
                     "action");
  }
}

TEST_CASE("Configure hands the logic the provider block's configuration") {
  Provider5 f;
  p5::Configure::Request req;
  req.set_terraform_version("1.9.0");
  *req.mutable_config() = packed(f.provider_config(text("https://example.com")));
  CHECK(f.call(&Stub::Configure, req).diagnostics().empty());
  CHECK(f.logic->configured_with.get_attribute("endpoint") == text("https://example.com"));
}

TEST_CASE("a provider configured with values not known yet defers what needs it, as allowed") {
  Provider5 f;
  p5::Configure::Request configure;
  *configure.mutable_config() = packed(f.provider_config(Value::unknown(Type::string())));
  configure.mutable_client_capabilities()->set_deferral_allowed(true);
  CHECK(f.call(&Stub::Configure, configure).diagnostics().empty());
  CHECK(f.logic->configured_with.is_null());  // configure waits for known values

  p5::ReadDataSource::Request read;
  read.set_type_name("test_stat");
  *read.mutable_config() =
      packed(f.config_of(f.schema().data_sources, "test_stat", {{"path", text("/etc/hosts")}}));
  read.mutable_client_capabilities()->set_deferral_allowed(true);
  const auto deferred = f.call(&Stub::ReadDataSource, read);
  CHECK(deferred.diagnostics().empty());
  CHECK(deferred.deferred().reason() == p5::Deferred::PROVIDER_CONFIG_UNKNOWN);
}

TEST_CASE("Stop stops the logic's running calls and answers no error") {
  auto logic = std::make_shared<StoppableLogic>();
  Provider5 f(logic);
  const auto resp = f.call(&Stub::Stop, p5::Stop::Request{});
  CHECK(resp.error().empty());
  CHECK(logic->stops.load() == 1);
}

TEST_CASE("a stop that fails says why in Stop's error") {
  auto logic = std::make_shared<StoppableLogic>();
  Provider5 f(logic);
  logic->on_stop = [] { throw std::runtime_error("the state pool is wedged"); };
  CHECK(f.call(&Stub::Stop, p5::Stop::Request{}).error() == "the state pool is wedged");
  logic->on_stop = [] { throw 7; };
  CHECK(f.call(&Stub::Stop, p5::Stop::Request{}).error() ==
        "unknown error while stopping the provider");
}

// The cases both protocols share, named for this protocol.
#define PROTOCOL "protocol 5: "
#include "tfplugin_server_cases.inc"
#undef PROTOCOL

}  // namespace
}  // namespace luaform::protocol
