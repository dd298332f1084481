#include "host/protocol/goplugin/plugin_server.h"

#include <doctest/doctest.h>
#include <atomic>

#include <chrono>
#include <future>
#include <optional>
#include <stdexcept>
#include <thread>

#include "host/protocol/goplugin/socket_path.h"
#include "host/protocol/goplugin/tls_certificate.h"
#include "host/protocol/proto/go_plugin.grpc.pb.h"
#include "host/protocol/proto/health.grpc.pb.h"
#include "host/protocol/proto/tfplugin5.grpc.pb.h"
#include "host/protocol/proto/tfplugin6.grpc.pb.h"
#include "tests/unit/protocol/grpc_client.h"
#include "tests/unit/protocol/test_provider.h"

namespace luaform::protocol {
namespace {

// A server with AutoMTLS on a fresh socket, and the certificates a client needs.
struct TlsFixture {
  std::string error;
  std::optional<Certificate> server_cert = generate_certificate(error);
  std::optional<Certificate> client_cert;
  std::unique_ptr<SocketDirectory> dir = SocketDirectory::create("/tmp", error);
  std::unique_ptr<PluginServer> server;

  explicit TlsFixture(const char* client_curve = "P-256",
                      PendingService service = PendingService::ready(testing::file_provider()))
      : client_cert(generate_certificate(error, client_curve)) {
    REQUIRE(server_cert);
    REQUIRE(client_cert);
    REQUIRE(dir);
    PluginServerConfig config;
    config.listen = {"unix", dir->socket_path()};
    config.tls = MutualTls{server_cert->cert_pem, server_cert->key_pem, client_cert->cert_pem};
    server = PluginServer::start(std::move(service), config, error);
    REQUIRE_MESSAGE(server, error);
  }

  std::shared_ptr<grpc::Channel> channel() const {
    return testing::tls_channel(
        dir->socket_path(), {server_cert->cert_pem, client_cert->cert_pem, client_cert->key_pem});
  }
};

TEST_CASE("on TCP, as go-plugin on Windows, it listens on a loopback port the system picks") {
  std::string error;
  auto server_cert = generate_certificate(error);
  auto client_cert = generate_certificate(error);
  REQUIRE(server_cert);
  REQUIRE(client_cert);
  PluginServerConfig config;
  config.listen = {"tcp", "127.0.0.1:0"};
  config.tls = MutualTls{server_cert->cert_pem, server_cert->key_pem, client_cert->cert_pem};
  auto server = PluginServer::start(PendingService::ready(testing::file_provider()), config, error);
  REQUIRE_MESSAGE(server, error);
  CHECK(server->address().network == "tcp");
  REQUIRE(server->address().address.starts_with("127.0.0.1:"));
  CHECK(server->address().address != "127.0.0.1:0");

  auto stub = tfplugin6::Provider::NewStub(
      testing::tls_channel(server->address().address,
                           {server_cert->cert_pem, client_cert->cert_pem, client_cert->key_pem}));
  tfplugin6::GetProviderSchema::Response response;
  auto status = stub->GetProviderSchema(testing::context().get(), {}, &response);
  REQUIRE_MESSAGE(status.ok(), status.error_message());
  CHECK(response.resource_schemas().count("test_file") == 1);
}

TEST_CASE("over mutual TLS the provider answers GetProviderSchema in both protocols") {
  TlsFixture f;
  auto channel = f.channel();

  auto v6 = tfplugin6::Provider::NewStub(channel);
  tfplugin6::GetProviderSchema::Response r6;
  auto status = v6->GetProviderSchema(testing::context().get(), {}, &r6);
  REQUIRE_MESSAGE(status.ok(), status.error_message());
  CHECK(r6.resource_schemas().count("test_file") == 1);
  CHECK(r6.data_source_schemas().count("test_stat") == 1);
  CHECK(r6.server_capabilities().get_provider_schema_optional());
  CHECK_FALSE(r6.server_capabilities().plan_destroy());

  auto v5 = tfplugin5::Provider::NewStub(channel);
  tfplugin5::GetProviderSchema::Response r5;
  status = v5->GetSchema(testing::context().get(), {}, &r5);
  REQUIRE_MESSAGE(status.ok(), status.error_message());
  CHECK(r5.resource_schemas().count("test_file") == 1);
}

TEST_CASE("an RPC that arrives while the provider is still loading waits for it") {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  TlsFixture f("P-256", PendingService::deferred([released](int) {
                 released.wait();
                 return testing::file_provider();
               }));
  auto stub = tfplugin6::Provider::NewStub(f.channel());
  tfplugin6::GetProviderSchema::Response resp;
  auto answer = std::async(std::launch::async, [&] {
    return stub->GetProviderSchema(testing::context().get(), {}, &resp);
  });
  // Still loading: no answer, however long the wait.
  CHECK(answer.wait_for(std::chrono::milliseconds(200)) == std::future_status::timeout);
  release.set_value();
  const grpc::Status status = answer.get();
  REQUIRE_MESSAGE(status.ok(), status.error_message());
  CHECK(resp.diagnostics_size() == 0);
  CHECK(resp.resource_schemas().count("test_file") == 1);
}

TEST_CASE("StopProvider is answered while the provider is still loading, and ends the load") {
  // The loader stands for scripts whose top level loops until a stop reaches them.
  auto stopped = std::make_shared<std::promise<void>>();
  std::shared_future<void> stop_seen = stopped->get_future().share();
  TlsFixture f("P-256", PendingService::deferred(
                            [stop_seen](int) {
                              stop_seen.wait();
                              return testing::file_provider();
                            },
                            [stopped] { stopped->set_value(); }));
  auto stub = tfplugin6::Provider::NewStub(f.channel());
  tfplugin6::GetProviderSchema::Response schema;
  auto loading = std::async(std::launch::async, [&] {
    return stub->GetProviderSchema(testing::context().get(), {}, &schema);
  });
  CHECK(loading.wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout);
  tfplugin6::StopProvider::Response stop;
  auto stopping = std::async(
      std::launch::async, [&] { return stub->StopProvider(testing::context().get(), {}, &stop); });
  REQUIRE(stopping.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
  CHECK(stopping.get().ok());
  CHECK(stop.error().empty());
  // The stop reached the load, which ends; the waiting RPC gets its answer.
  REQUIRE(loading.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
  CHECK(loading.get().ok());
}

TEST_CASE("a deferred provider loads when started, before any RPC asks for it") {
  std::promise<int> loaded;
  auto done = loaded.get_future();
  PendingService service = PendingService::deferred([&loaded](int protocol_version) {
    loaded.set_value(protocol_version);
    return testing::file_provider();
  });
  CHECK(done.wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout);
  service.serve_over(5);
  service.start();
  service.start();  // a second start is harmless
  REQUIRE(done.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
  CHECK(done.get() == 5);  // the loader learns the protocol it is served with
  const auto answer = service->engine().get_provider_schema();
  REQUIRE(answer.schema != nullptr);
  CHECK(answer.schema->resources.count("test_file") == 1);
}

TEST_CASE("an RPC that starts the load itself gives the loader the protocol said before") {
  std::atomic<int> seen{-1};
  PendingService service = PendingService::deferred([&seen](int protocol_version) {
    seen = protocol_version;
    return testing::file_provider();
  });
  service.serve_over(6);
  CHECK(service->engine().get_provider_schema().schema != nullptr);  // no start() before
  CHECK(seen == 6);
}

TEST_CASE("a provider that fails to load answers every RPC with an error saying why") {
  TlsFixture f("P-256",
               PendingService::deferred([](int) -> std::shared_ptr<engine::ProviderService> {
                 throw std::runtime_error("the scripts could not be read");
               }));
  auto stub = tfplugin6::Provider::NewStub(f.channel());
  tfplugin6::GetProviderSchema::Response resp;
  const grpc::Status status = stub->GetProviderSchema(testing::context().get(), {}, &resp);
  REQUIRE_MESSAGE(status.ok(), status.error_message());
  REQUIRE(resp.diagnostics_size() == 1);
  CHECK(resp.diagnostics(0).severity() == tfplugin6::Diagnostic::ERROR);
  CHECK(resp.diagnostics(0).detail() == "the scripts could not be read");
  tfplugin6::StopProvider::Response stopped;
  REQUIRE(stub->StopProvider(testing::context().get(), {}, &stopped).ok());
  CHECK(stopped.error() == "the scripts could not be read");
}

TEST_CASE("a P-521 client certificate, as go-plugin's client makes, is accepted") {
  TlsFixture f("P-521");
  auto stub = tfplugin6::Provider::NewStub(f.channel());
  tfplugin6::GetProviderSchema::Response resp;
  auto status = stub->GetProviderSchema(testing::context().get(), {}, &resp);
  CHECK_MESSAGE(status.ok(), status.error_message());
}

TEST_CASE("the health service reports \"plugin\" and the whole server as serving") {
  TlsFixture f;
  auto health = grpc::health::v1::Health::NewStub(f.channel());
  auto check = [&](const std::string& service, grpc::health::v1::HealthCheckResponse& resp) {
    grpc::health::v1::HealthCheckRequest req;
    req.set_service(service);
    return health->Check(testing::context().get(), req, &resp);
  };
  for (const std::string service : {"plugin", ""}) {
    CAPTURE(service);
    grpc::health::v1::HealthCheckResponse resp;
    auto status = check(service, resp);
    REQUIRE_MESSAGE(status.ok(), status.error_message());
    CHECK(resp.status() == grpc::health::v1::HealthCheckResponse::SERVING);
  }
  SUBCASE("a service it does not have is NOT_FOUND") {
    grpc::health::v1::HealthCheckResponse resp;
    auto status = check("tfplugin6.Provider.Elsewhere", resp);
    CHECK(status.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(status.error_message().find("Elsewhere") != std::string::npos);
  }
  SUBCASE("once shutdown is requested it is NOT_SERVING") {
    f.server->shutdown_signal().request();
    grpc::health::v1::HealthCheckResponse resp;
    auto status = check("plugin", resp);
    REQUIRE_MESSAGE(status.ok(), status.error_message());
    CHECK(resp.status() == grpc::health::v1::HealthCheckResponse::NOT_SERVING);
  }
}

using grpc::health::v1::HealthCheckResponse;

// A Watch call on the fixture's health service, open until the server ends it.
struct HealthWatch {
  std::unique_ptr<grpc::health::v1::Health::Stub> stub;
  std::unique_ptr<grpc::ClientContext> ctx = testing::context(10);
  std::unique_ptr<grpc::ClientReader<HealthCheckResponse>> reader;

  HealthWatch(const TlsFixture& f, const std::string& service)
      : stub(grpc::health::v1::Health::NewStub(f.channel())) {
    grpc::health::v1::HealthCheckRequest req;
    req.set_service(service);
    reader = stub->Watch(ctx.get(), req);
  }
  // The next status the server sends; nothing once the stream has ended.
  std::optional<HealthCheckResponse::ServingStatus> next() {
    HealthCheckResponse resp;
    if (!reader->Read(&resp)) return std::nullopt;
    return resp.status();
  }
};

TEST_CASE("a health watch sends SERVING, then NOT_SERVING at shutdown, and ends") {
  TlsFixture f;
  HealthWatch watch(f, "plugin");
  CHECK(watch.next() == HealthCheckResponse::SERVING);
  f.server->shutdown_signal().request();
  CHECK(watch.next() == HealthCheckResponse::NOT_SERVING);
  CHECK(watch.next() == std::nullopt);
  auto status = watch.reader->Finish();
  CHECK_MESSAGE(status.ok(), status.error_message());
}

TEST_CASE("a health watch of a service it does not have sends SERVICE_UNKNOWN") {
  TlsFixture f;
  HealthWatch watch(f, "elsewhere");
  CHECK(watch.next() == HealthCheckResponse::SERVICE_UNKNOWN);
  f.server->shutdown_signal().request();
  CHECK(watch.next() == std::nullopt);
}

TEST_CASE("a client without the announced certificate is refused") {
  TlsFixture f;
  auto request = [&](const testing::ClientTls& tls) {
    auto stub = tfplugin6::Provider::NewStub(testing::tls_channel(f.dir->socket_path(), tls));
    tfplugin6::GetProviderSchema::Response resp;
    return stub->GetProviderSchema(testing::context(3).get(), {}, &resp);
  };
  SUBCASE("no certificate at all") {
    auto status = request({f.server_cert->cert_pem, "", ""});
    CHECK_FALSE(status.ok());
    CHECK(status.error_code() == grpc::StatusCode::UNAVAILABLE);
  }
  SUBCASE("a certificate the CLI did not announce") {
    std::string error;
    auto stranger = generate_certificate(error);
    REQUIRE(stranger);
    auto status = request({f.server_cert->cert_pem, stranger->cert_pem, stranger->key_pem});
    CHECK_FALSE(status.ok());
  }
  SUBCASE("plaintext") {
    auto stub = tfplugin6::Provider::NewStub(testing::plaintext_channel(f.dir->socket_path()));
    tfplugin6::GetProviderSchema::Response resp;
    CHECK_FALSE(stub->GetProviderSchema(testing::context(3).get(), {}, &resp).ok());
  }
}

TEST_CASE("RPCs luaform lacks answer with an error diagnostic or an empty result") {
  TlsFixture f;
  auto stub = tfplugin6::Provider::NewStub(f.channel());

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

TEST_CASE("engine errors reach the client as diagnostics, not gRPC failures") {
  TlsFixture f;
  auto stub = tfplugin6::Provider::NewStub(f.channel());
  tfplugin6::ValidateResourceConfig::Request req;
  req.set_type_name("no_such_type");
  tfplugin6::ValidateResourceConfig::Response resp;
  auto status = stub->ValidateResourceConfig(testing::context().get(), req, &resp);
  REQUIRE(status.ok());
  REQUIRE(resp.diagnostics_size() >= 1);
  CHECK(resp.diagnostics(0).severity() == tfplugin6::Diagnostic::ERROR);
}

TEST_CASE("GRPCController.Shutdown replies and requests the server's shutdown") {
  TlsFixture f;
  CHECK_FALSE(f.server->shutdown_signal().requested());
  auto controller = plugin::GRPCController::NewStub(f.channel());
  plugin::Empty resp;
  auto status = controller->Shutdown(testing::context().get(), {}, &resp);
  REQUIRE_MESSAGE(status.ok(), status.error_message());
  CHECK(f.server->shutdown_signal().wait_for(std::chrono::seconds(2)));
}

TEST_CASE("an open stdio stream stays silent and does not delay shutdown") {
  TlsFixture f;
  auto stdio = plugin::GRPCStdio::NewStub(f.channel());
  auto ctx = testing::context(10);
  auto reader = stdio->StreamStdio(ctx.get(), {});
  plugin::StdioData data;
  bool got_data = false;
  std::thread read_all([&] { got_data = reader->Read(&data); });
  // Let the stream reach the server before stopping it.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto start = std::chrono::steady_clock::now();
  f.server->stop(std::chrono::milliseconds(5000));
  auto took = std::chrono::steady_clock::now() - start;
  read_all.join();
  CHECK_FALSE(got_data);
  CHECK(took < std::chrono::milliseconds(2000));
}

}  // namespace
}  // namespace luaform::protocol
