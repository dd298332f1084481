#include "host/protocol/goplugin/plugin_server.h"

#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <thread>

#include "host/protocol/goplugin/socket_path.h"
#include "host/protocol/goplugin/tls_certificate.h"
#include "host/protocol/proto/go_plugin.grpc.pb.h"
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

  explicit TlsFixture(const char* client_curve = "P-256")
      : client_cert(generate_certificate(error, client_curve)) {
    REQUIRE(server_cert);
    REQUIRE(client_cert);
    REQUIRE(dir);
    PluginServerConfig config;
    config.listen = {"unix", dir->socket_path()};
    config.tls = MutualTls{server_cert->cert_pem, server_cert->key_pem, client_cert->cert_pem};
    server = PluginServer::start(PendingService::ready(testing::file_provider()), config, error);
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

TEST_CASE("a P-521 client certificate, as go-plugin's client makes, is accepted") {
  TlsFixture f("P-521");
  auto stub = tfplugin6::Provider::NewStub(f.channel());
  tfplugin6::GetProviderSchema::Response resp;
  auto status = stub->GetProviderSchema(testing::context().get(), {}, &resp);
  CHECK_MESSAGE(status.ok(), status.error_message());
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
