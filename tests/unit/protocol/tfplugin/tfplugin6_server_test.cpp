// tfplugin6.Provider as the CLI calls it over gRPC: each RPC's request reaches the engine with
// what the CLI sent, and the engine's answer comes back in the protocol's fields (values as
// msgpack, problems as diagnostics, deferrals, private data). An internal error is an answer
// too, which keeps what the CLI must not lose. The state stream RPCs (ReadStateBytes,
// WriteStateBytes) are specified in state_stream_test.cpp.
#include "host/protocol/tfplugin/tfplugin6_server.h"

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
#include "host/protocol/proto/tfplugin6.grpc.pb.h"
#include "tests/unit/protocol/grpc_client.h"
#include "tests/unit/protocol/in_process_server.h"
#include "tests/unit/protocol/test_provider.h"

namespace luaform::protocol {
namespace {

namespace p6 = tfplugin6;
namespace pX = p6;
using ServerX = Tfplugin6Server;
#include "tfplugin_server_fixture.inc"
using Provider6 = ProviderX;

TEST_CASE("GetMetadata names every type the provider serves, each kind in its own list") {
  Provider6 f;
  const auto resp = f.call(&Stub::GetMetadata, p6::GetProviderMetadata::Request{});
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
  REQUIRE(resp.state_stores_size() == 1);
  CHECK(resp.state_stores(0).type_name() == "test_store");
  REQUIRE(resp.functions_size() == 1);
  CHECK(resp.functions(0).name() == "double");
  // test_file takes the states of other types: the CLI may send it MoveResourceState.
  CHECK(resp.server_capabilities().move_resource_state());
  CHECK(resp.server_capabilities().get_provider_schema_optional());
}

TEST_CASE("GetProviderSchema sends the schema of every type, each kind in its own map") {
  Provider6 f;
  const auto resp = f.call(&Stub::GetProviderSchema, p6::GetProviderSchema::Request{});
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
  CHECK(resp.state_store_schemas().count("test_store") == 1);
  REQUIRE(resp.functions().count("double") == 1);
  CHECK(resp.functions().at("double").summary() == "Doubles a number");
  CHECK(resp.server_capabilities().move_resource_state());
}

TEST_CASE("a provider whose scripts failed to load says why in its metadata and its schema") {
  auto logic = testing::every_kind_logic();
  logic->loading.error("provider.lua:3: unexpected symbol near '}'");
  Provider6 f(logic);
  const auto metadata = f.call(&Stub::GetMetadata, p6::GetProviderMetadata::Request{});
  REQUIRE(metadata.diagnostics_size() == 1);
  CHECK(metadata.diagnostics(0).severity() == p6::Diagnostic::ERROR);
  CHECK(metadata.diagnostics(0).summary() == "provider.lua:3: unexpected symbol near '}'");
  const auto schema = f.call(&Stub::GetProviderSchema, p6::GetProviderSchema::Request{});
  REQUIRE(schema.diagnostics_size() == 1);
  CHECK(schema.diagnostics(0).summary() == "provider.lua:3: unexpected symbol near '}'");
  // Without a provider block the CLI reports a missing schema instead of the error.
  CHECK(schema.has_provider());
}

TEST_CASE("ValidateProviderConfig answers the validate functions' findings at their attribute") {
  Provider6 f;
  f.logic->validators["endpoint"] = [](const Value& v) {
    Diagnostics diags;
    if (!v.as_string().starts_with("https://")) diags.error("endpoint must use https");
    return diags;
  };
  p6::ValidateProviderConfig::Request req;
  *req.mutable_config() = packed(f.provider_config(text("http://example.com")));
  const auto refused = f.call(&Stub::ValidateProviderConfig, req);
  REQUIRE(refused.diagnostics_size() == 1);
  CHECK(refused.diagnostics(0).severity() == p6::Diagnostic::ERROR);
  CHECK(refused.diagnostics(0).summary() == "endpoint must use https");
  REQUIRE(refused.diagnostics(0).attribute().steps_size() == 1);
  CHECK(refused.diagnostics(0).attribute().steps(0).attribute_name() == "endpoint");

  *req.mutable_config() = packed(f.provider_config(text("https://example.com")));
  CHECK(f.call(&Stub::ValidateProviderConfig, req).diagnostics().empty());
}

TEST_CASE("engine errors reach the client as diagnostics, not gRPC failures") {
  Provider6 f(PendingService::ready(testing::file_provider()));
  p6::ValidateResourceConfig::Request req;
  req.set_type_name("no_such_type");
  p6::ValidateResourceConfig::Response resp;
  auto status = f.stub->ValidateResourceConfig(testing::context().get(), req, &resp);
  REQUIRE(status.ok());
  REQUIRE(resp.diagnostics_size() >= 1);
  CHECK(resp.diagnostics(0).severity() == p6::Diagnostic::ERROR);
}

TEST_CASE(
    "ValidateResourceConfig refuses a write-only value unless the CLI keeps them from state") {
  auto logic = testing::every_kind_logic();
  engine::Attribute password =
      engine::testing::attribute("password", Type::string(), false, true, false);
  password.write_only = true;
  logic->declared.resources["test_file"].block.attributes.push_back(password);
  Provider6 f(logic);
  p6::ValidateResourceConfig::Request req;
  req.set_type_name("test_file");
  *req.mutable_config() = packed(f.file({{"path", text("/a")}, {"password", text("s3cret")}}));
  const auto refused = f.call(&Stub::ValidateResourceConfig, req);
  REQUIRE(refused.diagnostics_size() == 1);
  CHECK(refused.diagnostics(0).summary() == "Write-only attribute \"password\" needs a newer CLI");

  req.mutable_client_capabilities()->set_write_only_attributes_allowed(true);
  CHECK(f.call(&Stub::ValidateResourceConfig, req).diagnostics().empty());
}

TEST_CASE("each kind's Validate RPC judges its own kind of type, and names it for one it lacks") {
  Provider6 f;
  const engine::ProviderSchema& s = f.schema();
  SUBCASE("ValidateResourceConfig") {
    check_validation(f, &Stub::ValidateResourceConfig, "test_file",
                     f.config_of(s.resources, "test_file", {{"path", text("/a")}}), "resource");
  }
  SUBCASE("ValidateDataResourceConfig") {
    check_validation(f, &Stub::ValidateDataResourceConfig, "test_stat",
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
  SUBCASE("ValidateStateStoreConfig") {
    check_validation(f, &Stub::ValidateStateStoreConfig, "test_store",
                     f.config_of(s.state_stores, "test_store", {}), "state store");
  }
}

TEST_CASE("ConfigureProvider hands the logic the provider block's configuration") {
  Provider6 f;
  p6::ConfigureProvider::Request req;
  req.set_terraform_version("1.9.0");
  *req.mutable_config() = packed(f.provider_config(text("https://example.com")));
  CHECK(f.call(&Stub::ConfigureProvider, req).diagnostics().empty());
  CHECK(f.logic->configured_with.get_attribute("endpoint") == text("https://example.com"));
}

TEST_CASE("a provider configured with values not known yet defers what needs it, as allowed") {
  Provider6 f;
  p6::ConfigureProvider::Request configure;
  *configure.mutable_config() = packed(f.provider_config(Value::unknown(Type::string())));
  configure.mutable_client_capabilities()->set_deferral_allowed(true);
  CHECK(f.call(&Stub::ConfigureProvider, configure).diagnostics().empty());
  CHECK(f.logic->configured_with.is_null());  // configure waits for known values

  p6::ReadDataSource::Request read;
  read.set_type_name("test_stat");
  *read.mutable_config() =
      packed(f.config_of(f.schema().data_sources, "test_stat", {{"path", text("/etc/hosts")}}));
  read.mutable_client_capabilities()->set_deferral_allowed(true);
  const auto deferred = f.call(&Stub::ReadDataSource, read);
  CHECK(deferred.diagnostics().empty());
  CHECK(deferred.deferred().reason() == p6::Deferred::PROVIDER_CONFIG_UNKNOWN);
}

TEST_CASE("RPCs luaform lacks answer with an error diagnostic or an empty result") {
  Provider6 f(PendingService::ready(testing::file_provider()));
  auto& stub = f.stub;

  tfplugin6::OpenEphemeralResource::Response eph;
  REQUIRE(stub->OpenEphemeralResource(testing::context().get(), {}, &eph).ok());
  REQUIRE(eph.diagnostics_size() == 1);
  CHECK(eph.diagnostics(0).severity() == tfplugin6::Diagnostic::ERROR);

  tfplugin6::GetFunctions::Response functions;
  REQUIRE(stub->GetFunctions(testing::context().get(), {}, &functions).ok());
  CHECK(functions.functions().empty());
  CHECK(functions.diagnostics().empty());

  tfplugin6::GetResourceIdentitySchemas::Response identities;
  REQUIRE(stub->GetResourceIdentitySchemas(testing::context().get(), {}, &identities).ok());
  CHECK(identities.identity_schemas().empty());
  CHECK(identities.diagnostics().empty());

  tfplugin6::StopProvider::Response stop;
  REQUIRE(stub->StopProvider(testing::context().get(), {}, &stop).ok());
  CHECK(stop.error().empty());
}

TEST_CASE("a configured state store locks, lists, unlocks and deletes states through the logic") {
  Provider6 f;
  std::vector<std::string> calls;  // each store call the logic was given
  f.logic->store = [&calls](const Value&, engine::StoreCall& call) {
    std::string seen = std::string(engine::store_op_name(call.op)) + " " + call.state_id;
    if (call.op == engine::StoreOp::Lock) seen += " for " + call.operation;
    if (call.op == engine::StoreOp::Unlock) seen += " " + call.lock_id;
    calls.push_back(seen);
    if (call.op == engine::StoreOp::States) call.state_ids = {"default", "dev"};
    if (call.op == engine::StoreOp::Lock) call.lock_id = "lock-7";  // the store's own id
    return Diagnostics{};
  };
  p6::ConfigureStateStore::Request configure;
  configure.set_type_name("test_store");
  *configure.mutable_config() = packed(f.config_of(f.schema().state_stores, "test_store", {}));
  configure.mutable_capabilities()->set_chunk_size(4096);
  const auto configured = f.call(&Stub::ConfigureStateStore, configure);
  CHECK(configured.diagnostics().empty());
  CHECK(configured.capabilities().chunk_size() == 4096);

  p6::LockState::Request lock;
  lock.set_type_name("test_store");
  lock.set_state_id("dev");
  lock.set_operation("apply");
  const auto locked = f.call(&Stub::LockState, lock);
  CHECK(locked.diagnostics().empty());
  CHECK(locked.lock_id() == "lock-7");

  p6::GetStates::Request states;
  states.set_type_name("test_store");
  const auto listed = f.call(&Stub::GetStates, states);
  CHECK(listed.diagnostics().empty());
  REQUIRE(listed.state_id_size() == 2);
  CHECK(listed.state_id(0) == "default");
  CHECK(listed.state_id(1) == "dev");

  p6::UnlockState::Request unlock;
  unlock.set_type_name("test_store");
  unlock.set_state_id("dev");
  unlock.set_lock_id(locked.lock_id());
  CHECK(f.call(&Stub::UnlockState, unlock).diagnostics().empty());

  p6::DeleteState::Request remove;
  remove.set_type_name("test_store");
  remove.set_state_id("dev");
  CHECK(f.call(&Stub::DeleteState, remove).diagnostics().empty());

  CHECK(calls == std::vector<std::string>{"configure ", "lock dev for apply", "states ",
                                          "unlock dev lock-7", "delete dev"});
}

TEST_CASE("a state store the CLI did not configure refuses its state RPCs, with no lock id") {
  Provider6 f;
  p6::LockState::Request lock;
  lock.set_type_name("test_store");
  lock.set_state_id("dev");
  const auto locked = f.call(&Stub::LockState, lock);
  CHECK(locked.lock_id().empty());
  REQUIRE(locked.diagnostics_size() == 1);
  CHECK(locked.diagnostics(0).summary() == "test_store is not configured");

  p6::GetStates::Request states;
  states.set_type_name("test_store");
  const auto listed = f.call(&Stub::GetStates, states);
  CHECK(listed.state_id().empty());
  REQUIRE(listed.diagnostics_size() == 1);
  CHECK(listed.diagnostics(0).summary() == "test_store is not configured");

  p6::UnlockState::Request unlock;
  unlock.set_type_name("test_store");
  unlock.set_state_id("dev");
  CHECK(f.call(&Stub::UnlockState, unlock).diagnostics_size() == 1);

  p6::DeleteState::Request remove;
  remove.set_type_name("test_store");
  remove.set_state_id("dev");
  CHECK(f.call(&Stub::DeleteState, remove).diagnostics_size() == 1);
}

TEST_CASE("StopProvider stops the logic's running calls and answers no error") {
  auto logic = std::make_shared<StoppableLogic>();
  Provider6 f(logic);
  const auto resp = f.call(&Stub::StopProvider, p6::StopProvider::Request{});
  CHECK(resp.error().empty());
  CHECK(logic->stops.load() == 1);
}

TEST_CASE("a stop that fails says why in StopProvider's error") {
  auto logic = std::make_shared<StoppableLogic>();
  Provider6 f(logic);
  logic->on_stop = [] { throw std::runtime_error("the state pool is wedged"); };
  CHECK(f.call(&Stub::StopProvider, p6::StopProvider::Request{}).error() ==
        "the state pool is wedged");
  logic->on_stop = [] { throw 7; };
  CHECK(f.call(&Stub::StopProvider, p6::StopProvider::Request{}).error() ==
        "unknown error while stopping the provider");
}

// The cases both protocols share, named for this protocol.
#define PROTOCOL "protocol 6: "
#include "tfplugin_server_cases.inc"
#undef PROTOCOL

}  // namespace
}  // namespace luaform::protocol
