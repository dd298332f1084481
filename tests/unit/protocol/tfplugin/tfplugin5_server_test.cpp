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
using engine::Diagnostics;
using engine::Operation;
using engine::ResourceData;
using engine::Type;
using engine::Value;
using engine::testing::ScriptedLogic;
using Stub = p5::Provider::Stub;

Value text(const std::string& s) {
  return Value::string(s);
}

p5::DynamicValue packed(const Value& v) {
  p5::DynamicValue out;
  out.set_msgpack(engine::encode_msgpack(v, v.type()));
  return out;
}

// A value of the server's answer, read as the CLI reads it.
Value unpacked(const p5::DynamicValue& v, const Type& type) {
  Diagnostics diags;
  Value out = engine::decode_msgpack(v.msgpack(), type, diags);
  REQUIRE_MESSAGE(!diags.has_errors(), diags.first_text());
  return out;
}

// The loader of a provider whose scripts cannot be read: every RPC meets this as an exception.
PendingService::Loader failing_load() {
  return [](int) -> std::shared_ptr<engine::ProviderService> {
    throw std::runtime_error("the scripts could not be read");
  };
}

// A Tfplugin5Server called through gRPC, over every_kind_logic() unless a test gives another.
struct Provider5 {
  std::shared_ptr<ScriptedLogic> logic = testing::every_kind_logic();
  // The engine the server serves, whose schema the CLI encodes the requests' values with.
  std::shared_ptr<engine::ProviderService> service =
      std::make_shared<engine::ProviderService>(logic);
  Tfplugin5Server server;
  testing::InProcessServer in_process{&server};
  std::unique_ptr<Stub> stub = p5::Provider::NewStub(in_process.channel());

  Provider5() : server(PendingService::ready(service)) {}
  explicit Provider5(std::shared_ptr<ScriptedLogic> given)
      : logic(std::move(given)), server(PendingService::ready(service)) {}
  // Serves `pending` instead; `service` then only gives the schema values are encoded with.
  explicit Provider5(PendingService pending) : server(std::move(pending)) {}

  // Every unary RPC answers with an OK status: what went wrong is in the response.
  template <class Request, class Response>
  Response call(grpc::Status (Stub::*rpc)(grpc::ClientContext*, const Request&, Response*),
                const Request& req) const {
    Response resp;
    const grpc::Status status = (stub.get()->*rpc)(testing::context().get(), req, &resp);
    REQUIRE_MESSAGE(status.ok(), status.error_message());
    return resp;
  }

  const engine::ProviderSchema& schema() const { return *service->get_provider_schema().schema; }
  Type file_type() const { return schema().resources.at("test_file").block.implied_type(); }
  Type identity_type() const { return schema().resources.at("test_file").identity->implied_type(); }
  Value file(Value::Object attributes) const {
    return Value::object(file_type(), std::move(attributes));
  }
  // test_file /a as a create made it and the CLI stores it.
  Value stored_file() const {
    return file({{"id", text("/a")},
                 {"path", text("/a")},
                 {"content", text("x")},
                 {"sha", text("abc")},
                 {"mode", text("0644")}});
  }
  Value identity(const std::string& path) const {
    return Value::object(identity_type(), {{"path", text(path)}});
  }
  // A configuration of the type `name` among `kind` (schema().data_sources, ...).
  Value config_of(const std::map<std::string, engine::Schema>& kind, const std::string& name,
                  Value::Object attributes) const {
    return Value::object(kind.at(name).block.implied_type(), std::move(attributes));
  }
  Value provider_config(Value endpoint) const {
    return Value::object(schema().provider.block.implied_type(),
                         {{"endpoint", std::move(endpoint)}});
  }
};

bool has_attribute(const p5::Schema::Block& block, const std::string& name) {
  for (const auto& attribute : block.attributes()) {
    if (attribute.name() == name) return true;
  }
  return false;
}

// The one diagnostic an internal error leaves: an error naming the RPC, saying what went wrong.
void check_internal_error(const google::protobuf::RepeatedPtrField<p5::Diagnostic>& diagnostics,
                          const std::string& rpc) {
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].severity() == p5::Diagnostic::ERROR);
  CHECK(diagnostics[0].summary() == "Internal error in the provider during " + rpc);
  CHECK(diagnostics[0].detail() == "the scripts could not be read");
}

// A validation RPC of one kind of type: a good configuration of `type_name` passes, and a name
// the provider lacks is an error naming `kind`, which shows the RPC asked about that kind.
template <class Request, class Response>
void check_validation(const Provider5& f,
                      grpc::Status (Stub::*rpc)(grpc::ClientContext*, const Request&, Response*),
                      const std::string& type_name, const Value& good, const std::string& kind) {
  Request req;
  req.set_type_name(type_name);
  *req.mutable_config() = packed(good);
  const Response passed = f.call(rpc, req);
  CHECK(passed.diagnostics().empty());
  req.set_type_name("test_nothing");
  const Response unknown = f.call(rpc, req);
  REQUIRE(unknown.diagnostics_size() == 1);
  CHECK(unknown.diagnostics(0).severity() == p5::Diagnostic::ERROR);
  CHECK(unknown.diagnostics(0).summary() == "Unknown " + kind + " type \"test_nothing\"");
}

// A logic whose stop() the test watches, and may make fail.
struct StoppableLogic : ScriptedLogic {
  std::atomic<int> stops{0};
  std::function<void()> on_stop;
  void stop() override {
    ++stops;
    if (on_stop) on_stop();
  }
};

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

TEST_CASE("ReadResource answers the object the logic read, with its private data and identity") {
  Provider5 f;
  f.logic->callbacks[Operation::Read] = [](ResourceData& d) {
    return d.set("content", text("changed outside"));
  };
  p5::ReadResource::Request req;
  req.set_type_name("test_file");
  *req.mutable_current_state() = packed(f.stored_file());
  req.set_private_(R"({"etag":"e1"})");
  *req.mutable_current_identity()->mutable_identity_data() = packed(f.identity("/a"));
  const auto resp = f.call(&Stub::ReadResource, req);
  CHECK(resp.diagnostics().empty());
  const Value state = unpacked(resp.new_state(), f.file_type());
  CHECK(state.get_attribute("content") == text("changed outside"));
  CHECK(state.get_attribute("id") == text("/a"));
  CHECK(resp.private_() == R"({"etag":"e1"})");
  CHECK(unpacked(resp.new_identity().identity_data(), f.identity_type()) == f.identity("/a"));
}

TEST_CASE("ReadResource of an object the logic no longer finds answers a null state") {
  Provider5 f;
  f.logic->callbacks[Operation::Read] = [](ResourceData& d) {
    d.set_id("");
    return Diagnostics{};
  };
  p5::ReadResource::Request req;
  req.set_type_name("test_file");
  *req.mutable_current_state() = packed(f.stored_file());
  const auto resp = f.call(&Stub::ReadResource, req);
  CHECK(resp.diagnostics().empty());
  CHECK(unpacked(resp.new_state(), f.file_type()).is_null());
}

TEST_CASE("UpgradeResourceState reads a state stored as JSON under the current schema version") {
  Provider5 f;
  p5::UpgradeResourceState::Request req;
  req.set_type_name("test_file");
  req.set_version(0);
  req.mutable_raw_state()->set_json(
      R"({"id":"/a","path":"/a","content":"x","sha":"abc","mode":"0644"})");
  const auto resp = f.call(&Stub::UpgradeResourceState, req);
  CHECK(resp.diagnostics().empty());
  CHECK(unpacked(resp.upgraded_state(), f.file_type()) == f.stored_file());

  req.set_type_name("test_nothing");
  const auto unknown = f.call(&Stub::UpgradeResourceState, req);
  REQUIRE(unknown.diagnostics_size() == 1);
  CHECK(unknown.diagnostics(0).summary() == "Unknown resource type \"test_nothing\"");
  CHECK(unknown.upgraded_state().msgpack().empty());  // no state of a type it does not have
}

TEST_CASE("PlanResourceChange plans a create, leaving what only apply knows unknown") {
  Provider5 f;
  const Value config = f.file({{"path", text("/a")}});
  p5::PlanResourceChange::Request req;
  req.set_type_name("test_file");
  *req.mutable_prior_state() = packed(Value::null(f.file_type()));
  *req.mutable_proposed_new_state() = packed(config);
  *req.mutable_config() = packed(config);
  const auto resp = f.call(&Stub::PlanResourceChange, req);
  CHECK(resp.diagnostics().empty());
  const Value planned = unpacked(resp.planned_state(), f.file_type());
  CHECK(planned.get_attribute("path") == text("/a"));
  CHECK(planned.get_attribute("content") == text(""));  // its default
  CHECK(planned.get_attribute("id").is_unknown());
  CHECK(planned.get_attribute("sha").is_unknown());
  CHECK(resp.requires_replace().empty());
  // The CLI must hold the plan to its full consistency rules.
  CHECK_FALSE(resp.legacy_type_system());
}

TEST_CASE("PlanResourceChange of a new path, which forces a new object, names it to replace") {
  Provider5 f;
  const Value prior = f.stored_file();
  p5::PlanResourceChange::Request req;
  req.set_type_name("test_file");
  *req.mutable_prior_state() = packed(prior);
  *req.mutable_proposed_new_state() = packed(prior.with_attribute("path", text("/b")));
  *req.mutable_config() = packed(f.file({{"path", text("/b")}, {"content", text("x")}}));
  *req.mutable_prior_identity()->mutable_identity_data() = packed(f.identity("/a"));
  const auto resp = f.call(&Stub::PlanResourceChange, req);
  CHECK(resp.diagnostics().empty());
  REQUIRE(resp.requires_replace_size() == 1);
  REQUIRE(resp.requires_replace(0).steps_size() == 1);
  CHECK(resp.requires_replace(0).steps(0).attribute_name() == "path");
  const Value planned = unpacked(resp.planned_state(), f.file_type());
  // The CLI plans the new object's create in a second call, with no prior state.
  CHECK(planned.get_attribute("path") == text("/b"));
}

TEST_CASE("ApplyResourceChange answers the object the logic created, with its identity") {
  Provider5 f;
  f.logic->callbacks[Operation::Create] = [](ResourceData& d) {
    d.set_id("/a");
    return d.set("sha", text("123"));
  };
  const Value unknown = Value::unknown(Type::string());
  p5::ApplyResourceChange::Request req;
  req.set_type_name("test_file");
  *req.mutable_prior_state() = packed(Value::null(f.file_type()));
  *req.mutable_planned_state() = packed(f.file({{"id", unknown},
                                                {"path", text("/a")},
                                                {"content", text("")},
                                                {"sha", unknown},
                                                {"mode", unknown}}));
  *req.mutable_config() = packed(f.file({{"path", text("/a")}}));
  const auto resp = f.call(&Stub::ApplyResourceChange, req);
  CHECK(resp.diagnostics().empty());
  const Value state = unpacked(resp.new_state(), f.file_type());
  CHECK(state.get_attribute("id") == text("/a"));
  CHECK(state.get_attribute("sha") == text("123"));
  CHECK(state.is_wholly_known());
  CHECK(unpacked(resp.new_identity().identity_data(), f.identity_type()) == f.identity("/a"));
}

TEST_CASE("ApplyResourceChange passes the logic's failure on, with no object it did not create") {
  Provider5 f;
  f.logic->callbacks[Operation::Create] = [](ResourceData&) {
    return engine::testing::failure_of("disk full");
  };
  const Value unknown = Value::unknown(Type::string());
  p5::ApplyResourceChange::Request req;
  req.set_type_name("test_file");
  *req.mutable_prior_state() = packed(Value::null(f.file_type()));
  *req.mutable_planned_state() = packed(f.file({{"id", unknown},
                                                {"path", text("/a")},
                                                {"content", text("")},
                                                {"sha", unknown},
                                                {"mode", unknown}}));
  *req.mutable_config() = packed(f.file({{"path", text("/a")}}));
  const auto resp = f.call(&Stub::ApplyResourceChange, req);
  REQUIRE(resp.diagnostics_size() == 1);
  CHECK(resp.diagnostics(0).severity() == p5::Diagnostic::ERROR);
  CHECK(resp.diagnostics(0).summary() == "disk full");
  CHECK(unpacked(resp.new_state(), f.file_type()).is_null());
}

TEST_CASE("ImportResourceState imports the object of the id the user gave") {
  Provider5 f;
  p5::ImportResourceState::Request req;
  req.set_type_name("test_file");
  req.set_id("/a");
  const auto resp = f.call(&Stub::ImportResourceState, req);
  CHECK(resp.diagnostics().empty());
  REQUIRE(resp.imported_resources_size() == 1);
  const auto& imported = resp.imported_resources(0);
  CHECK(imported.type_name() == "test_file");
  CHECK(unpacked(imported.state(), f.file_type()).get_attribute("id") == text("/a"));
}

TEST_CASE("ImportResourceState imports by the identity an import block gives") {
  Provider5 f;
  // The identity holds no id: the import function makes it of the path.
  f.logic->callbacks[Operation::Import] = [](ResourceData& d) {
    d.set_id(d.get("path").as_string());
    return Diagnostics{};
  };
  p5::ImportResourceState::Request req;
  req.set_type_name("test_file");
  *req.mutable_identity()->mutable_identity_data() = packed(f.identity("/b"));
  const auto resp = f.call(&Stub::ImportResourceState, req);
  CHECK(resp.diagnostics().empty());
  REQUIRE(resp.imported_resources_size() == 1);
  const auto& imported = resp.imported_resources(0);
  const Value state = unpacked(imported.state(), f.file_type());
  CHECK(state.get_attribute("id") == text("/b"));
  CHECK(state.get_attribute("path") == text("/b"));
  CHECK(unpacked(imported.identity().identity_data(), f.identity_type()) == f.identity("/b"));
}

TEST_CASE("MoveResourceState answers the state test_file's function made of another type's") {
  Provider5 f;
  std::optional<engine::MoveSource> seen;
  f.logic->mover = [&seen](const engine::MoveSource& source, const Type& target,
                           Diagnostics&) -> std::optional<Value> {
    seen = source;
    if (source.type_name != "old_file") return std::nullopt;
    return Value::object(target,
                         {{"id", text("/a")}, {"path", text("/a")}, {"content", text("x")}});
  };
  p5::MoveResourceState::Request req;
  req.set_source_provider_address("registry.opentofu.org/luaform/old");
  req.set_source_type_name("old_file");
  req.set_source_schema_version(2);
  req.mutable_source_state()->set_json(R"({"id":"/a","filename":"/a"})");
  req.set_source_private(R"({"etag":"e1"})");
  req.set_target_type_name("test_file");
  const auto resp = f.call(&Stub::MoveResourceState, req);
  CHECK(resp.diagnostics().empty());
  CHECK(unpacked(resp.target_state(), f.file_type()).get_attribute("content") == text("x"));
  CHECK(resp.target_private() == R"({"etag":"e1"})");
  REQUIRE(seen);
  CHECK(seen->provider_address == "registry.opentofu.org/luaform/old");
  CHECK(seen->schema_version == 2);
  CHECK(seen->raw_json == R"({"id":"/a","filename":"/a"})");

  req.set_source_type_name("other_thing");
  const auto refused = f.call(&Stub::MoveResourceState, req);
  REQUIRE(refused.diagnostics_size() == 1);
  CHECK(refused.diagnostics(0).summary() == "Cannot move other_thing to test_file");
  CHECK_FALSE(refused.has_target_state());
}

TEST_CASE("ReadDataSource answers what the logic read for the configuration") {
  Provider5 f;
  f.logic->callbacks[Operation::ReadData] = [](ResourceData& d) {
    return d.set("size", Value::number(12));
  };
  p5::ReadDataSource::Request req;
  req.set_type_name("test_stat");
  *req.mutable_config() =
      packed(f.config_of(f.schema().data_sources, "test_stat", {{"path", text("/etc/hosts")}}));
  const auto resp = f.call(&Stub::ReadDataSource, req);
  CHECK(resp.diagnostics().empty());
  CHECK_FALSE(resp.has_deferred());
  const Value state =
      unpacked(resp.state(), f.schema().data_sources.at("test_stat").block.implied_type());
  CHECK(state.get_attribute("path") == text("/etc/hosts"));
  CHECK(state.get_attribute("size") == Value::number(12));
}

TEST_CASE("GenerateResourceConfig writes the configuration of a stored object") {
  Provider5 f;
  p5::GenerateResourceConfig::Request req;
  req.set_type_name("test_file");
  *req.mutable_state() = packed(f.stored_file());
  const auto resp = f.call(&Stub::GenerateResourceConfig, req);
  CHECK(resp.diagnostics().empty());
  const Value config = unpacked(resp.config(), f.file_type());
  CHECK(config.get_attribute("path") == text("/a"));
  CHECK(config.get_attribute("content") == text("x"));
  CHECK(config.get_attribute("sha").is_null());  // only the provider sets it
}

TEST_CASE("an ephemeral resource opens, renews and closes with the private data between them") {
  Provider5 f;
  const auto renew_at = std::chrono::system_clock::now() + std::chrono::minutes(5);
  std::vector<std::string> seen;  // the private data Renew and Close were given
  f.logic->callbacks[Operation::Open] = [renew_at](ResourceData& d) {
    d.set_private_data("lease-1");
    d.set_renew_at(renew_at);
    return d.set("value", text("tok-1"));
  };
  f.logic->callbacks[Operation::Renew] = [&seen](ResourceData& d) {
    seen.push_back(d.private_data());
    d.set_private_data("lease-2");
    return Diagnostics{};
  };
  f.logic->callbacks[Operation::Close] = [&seen](ResourceData& d) {
    seen.push_back(d.private_data());
    return Diagnostics{};
  };

  p5::OpenEphemeralResource::Request open;
  open.set_type_name("test_token");
  *open.mutable_config() =
      packed(f.config_of(f.schema().ephemeral_resources, "test_token", {{"scope", text("read")}}));
  const auto opened = f.call(&Stub::OpenEphemeralResource, open);
  CHECK(opened.diagnostics().empty());
  const Value result = unpacked(
      opened.result(), f.schema().ephemeral_resources.at("test_token").block.implied_type());
  CHECK(result.get_attribute("value") == text("tok-1"));
  CHECK(opened.private_() == "lease-1");
  REQUIRE(opened.has_renew_at());
  CHECK(opened.renew_at().seconds() == std::chrono::system_clock::to_time_t(renew_at));

  p5::RenewEphemeralResource::Request renew;
  renew.set_type_name("test_token");
  renew.set_private_(opened.private_());
  const auto renewed = f.call(&Stub::RenewEphemeralResource, renew);
  CHECK(renewed.diagnostics().empty());
  CHECK(renewed.private_() == "lease-2");

  p5::CloseEphemeralResource::Request close;
  close.set_type_name("test_token");
  close.set_private_(renewed.private_());
  CHECK(f.call(&Stub::CloseEphemeralResource, close).diagnostics().empty());
  CHECK(seen == std::vector<std::string>{"lease-1", "lease-2"});
}

TEST_CASE("GetResourceIdentitySchemas describes the identity of each resource that has one") {
  Provider5 f;
  const auto resp =
      f.call(&Stub::GetResourceIdentitySchemas, p5::GetResourceIdentitySchemas::Request{});
  CHECK(resp.diagnostics().empty());
  REQUIRE(resp.identity_schemas().count("test_file") == 1);
  const auto& identity = resp.identity_schemas().at("test_file");
  CHECK(identity.version() == 0);
  REQUIRE(identity.identity_attributes_size() == 1);
  CHECK(identity.identity_attributes(0).name() == "path");
  CHECK(identity.identity_attributes(0).type() == "\"string\"");
  CHECK(identity.identity_attributes(0).required_for_import());
}

TEST_CASE("UpgradeResourceIdentity reads an identity stored under the current version") {
  Provider5 f;
  p5::UpgradeResourceIdentity::Request req;
  req.set_type_name("test_file");
  req.set_version(0);
  req.mutable_raw_identity()->set_json(R"({"path":"/a"})");
  const auto resp = f.call(&Stub::UpgradeResourceIdentity, req);
  CHECK(resp.diagnostics().empty());
  CHECK(unpacked(resp.upgraded_identity().identity_data(), f.identity_type()) == f.identity("/a"));
}

TEST_CASE("ListResource streams each object the logic finds, with its identity and name") {
  Provider5 f;
  std::string asked_prefix;
  int64_t asked_limit = 0;
  f.logic->lister = [&](const Value& config, const engine::ListOptions& options,
                        const engine::ListEmit& emit) {
    asked_prefix = config.get_attribute("prefix").as_string();
    asked_limit = options.limit;
    for (const std::string path : {"/a", "/b"}) {
      emit(engine::ListedObject{f.identity(path), "File " + path, std::nullopt, {}}, {});
    }
    return Diagnostics{};
  };
  p5::ListResource::Request req;
  req.set_type_name("test_file");
  *req.mutable_config() =
      packed(f.config_of(f.schema().list_resources, "test_file", {{"prefix", text("a")}}));
  req.set_limit(10);
  auto ctx = testing::context();
  auto reader = f.stub->ListResource(ctx.get(), req);
  std::vector<p5::ListResource::Event> events;
  p5::ListResource::Event event;
  while (reader->Read(&event)) events.push_back(event);
  REQUIRE(reader->Finish().ok());

  REQUIRE(events.size() == 2);
  CHECK(events[0].display_name() == "File /a");
  CHECK(unpacked(events[0].identity().identity_data(), f.identity_type()) == f.identity("/a"));
  CHECK(events[1].display_name() == "File /b");
  CHECK(events[1].diagnostic().empty());
  CHECK_FALSE(events[1].has_resource_object());  // not asked for
  CHECK(asked_prefix == "a");
  CHECK(asked_limit == 10);
}

TEST_CASE("GetFunctions describes each function with its parameters and its return type") {
  Provider5 f;
  const auto resp = f.call(&Stub::GetFunctions, p5::GetFunctions::Request{});
  CHECK(resp.diagnostics().empty());
  REQUIRE(resp.functions().count("double") == 1);
  const auto& twice = resp.functions().at("double");
  REQUIRE(twice.parameters_size() == 1);
  CHECK(twice.parameters(0).name() == "n");
  CHECK(twice.parameters(0).type() == "\"number\"");
  CHECK(twice.return_().type() == "\"number\"");
  CHECK(twice.summary() == "Doubles a number");
}

TEST_CASE("CallFunction calls the function with the CLI's arguments and answers its result") {
  Provider5 f;
  f.logic->functions["double"] = [](const std::vector<Value>& arguments) {
    const int64_t n = arguments.at(0).as_number().to_int64().value_or(0);
    return engine::FunctionOutcome{Value::number(2 * n), std::nullopt};
  };
  p5::CallFunction::Request req;
  req.set_name("double");
  *req.add_arguments() = packed(Value::number(21));
  const auto resp = f.call(&Stub::CallFunction, req);
  CHECK_FALSE(resp.has_error());
  CHECK(unpacked(resp.result(), Type::number()) == Value::number(42));
}

TEST_CASE("CallFunction answers a failure as its function error, naming the argument at fault") {
  Provider5 f;
  f.logic->functions["double"] = [](const std::vector<Value>&) {
    return engine::FunctionOutcome{Value(), engine::FunctionFailure{"n must be positive", 0}};
  };
  p5::CallFunction::Request req;
  req.set_name("double");
  *req.add_arguments() = packed(Value::number(-1));
  const auto resp = f.call(&Stub::CallFunction, req);
  CHECK_FALSE(resp.has_result());
  CHECK(resp.error().text() == "n must be positive");
  REQUIRE(resp.error().has_function_argument());
  CHECK(resp.error().function_argument() == 0);
}

TEST_CASE("PlanAction answers the action's own check of its configuration") {
  Provider5 f;
  f.logic->action_planner = [](const Value& config) {
    Diagnostics diags;
    diags.warning("will notify " + config.get_attribute("message").as_string());
    return diags;
  };
  p5::PlanAction::Request req;
  req.set_action_type("test_notify");
  *req.mutable_config() =
      packed(f.config_of(f.schema().actions, "test_notify", {{"message", text("on-call")}}));
  const auto resp = f.call(&Stub::PlanAction, req);
  REQUIRE(resp.diagnostics_size() == 1);
  CHECK(resp.diagnostics(0).severity() == p5::Diagnostic::WARNING);
  CHECK(resp.diagnostics(0).summary() == "will notify on-call");
  CHECK_FALSE(resp.has_deferred());
}

TEST_CASE("InvokeAction streams the action's progress, then its completion") {
  Provider5 f;
  f.logic->action_runner = [](const Value&, const engine::ActionProgress& progress) {
    progress("sending");
    progress("sent");
    return Diagnostics{};
  };
  p5::InvokeAction::Request req;
  req.set_action_type("test_notify");
  *req.mutable_config() =
      packed(f.config_of(f.schema().actions, "test_notify", {{"message", text("on-call")}}));
  auto ctx = testing::context();
  auto reader = f.stub->InvokeAction(ctx.get(), req);
  std::vector<p5::InvokeAction::Event> events;
  p5::InvokeAction::Event event;
  while (reader->Read(&event)) events.push_back(event);
  REQUIRE(reader->Finish().ok());

  REQUIRE(events.size() == 3);
  CHECK(events[0].progress().message() == "sending");
  CHECK(events[1].progress().message() == "sent");
  REQUIRE(events[2].has_completed());
  CHECK(events[2].completed().diagnostics().empty());
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

TEST_CASE("an internal error answers an error naming the RPC, keeping what the CLI must not lose") {
  Provider5 f{PendingService::deferred(failing_load())};

  SUBCASE("ReadResource keeps the object in state, not read as gone") {
    p5::ReadResource::Request req;
    req.set_type_name("test_file");
    *req.mutable_current_state() = packed(f.stored_file());
    req.set_private_(R"({"etag":"e1"})");
    *req.mutable_current_identity()->mutable_identity_data() = packed(f.identity("/a"));
    const auto resp = f.call(&Stub::ReadResource, req);
    check_internal_error(resp.diagnostics(), "ReadResource");
    CHECK(resp.new_state().msgpack() == req.current_state().msgpack());
    CHECK(resp.private_() == R"({"etag":"e1"})");
    CHECK(resp.new_identity().identity_data().msgpack() ==
          req.current_identity().identity_data().msgpack());
  }
  SUBCASE("ApplyResourceChange keeps the prior state of an object it may have touched") {
    p5::ApplyResourceChange::Request req;
    req.set_type_name("test_file");
    *req.mutable_prior_state() = packed(f.stored_file());
    *req.mutable_planned_state() = packed(f.stored_file().with_attribute("content", text("y")));
    const auto resp = f.call(&Stub::ApplyResourceChange, req);
    check_internal_error(resp.diagnostics(), "ApplyResourceChange");
    CHECK(resp.new_state().msgpack() == req.prior_state().msgpack());
  }
  SUBCASE("RenewEphemeralResource keeps the private data Close still needs") {
    p5::RenewEphemeralResource::Request req;
    req.set_type_name("test_token");
    req.set_private_("lease-1");
    const auto resp = f.call(&Stub::RenewEphemeralResource, req);
    check_internal_error(resp.diagnostics(), "RenewEphemeralResource");
    CHECK(resp.private_() == "lease-1");
  }
  SUBCASE("PlanResourceChange answers no plan") {
    p5::PlanResourceChange::Request req;
    req.set_type_name("test_file");
    *req.mutable_prior_state() = packed(f.stored_file());
    const auto resp = f.call(&Stub::PlanResourceChange, req);
    check_internal_error(resp.diagnostics(), "PlanResourceChange");
    CHECK_FALSE(resp.has_planned_state());
  }
  SUBCASE("CallFunction, which has no diagnostics, answers its function error") {
    p5::CallFunction::Request req;
    req.set_name("double");
    const auto resp = f.call(&Stub::CallFunction, req);
    CHECK(resp.error().text() ==
          "Internal error in the provider during CallFunction: the scripts could not be read");
  }
  SUBCASE("ListResource ends its stream with an event carrying the error") {
    p5::ListResource::Request req;
    req.set_type_name("test_file");
    auto ctx = testing::context();
    auto reader = f.stub->ListResource(ctx.get(), req);
    std::vector<p5::ListResource::Event> events;
    p5::ListResource::Event event;
    while (reader->Read(&event)) events.push_back(event);
    REQUIRE(reader->Finish().ok());
    REQUIRE(events.size() == 1);
    check_internal_error(events[0].diagnostic(), "ListResource");
  }
  SUBCASE("InvokeAction completes with the error") {
    p5::InvokeAction::Request req;
    req.set_action_type("test_notify");
    auto ctx = testing::context();
    auto reader = f.stub->InvokeAction(ctx.get(), req);
    std::vector<p5::InvokeAction::Event> events;
    p5::InvokeAction::Event event;
    while (reader->Read(&event)) events.push_back(event);
    REQUIRE(reader->Finish().ok());
    REQUIRE(events.size() == 1);
    REQUIRE(events[0].has_completed());
    check_internal_error(events[0].completed().diagnostics(), "InvokeAction");
  }
}

}  // namespace
}  // namespace luaform::protocol
