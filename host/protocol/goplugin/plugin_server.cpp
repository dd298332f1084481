#include "host/protocol/goplugin/plugin_server.h"

#include <sys/stat.h>

#include <string>

#include <absl/synchronization/mutex.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

namespace luaform::protocol {

namespace {

// terraform-plugin-go's limit; gRPC's default of 4 MiB is too small for large schemas/states.
constexpr int kMaxMessageBytes = 256 << 20;

std::shared_ptr<grpc::ServerCredentials> credentials(const PluginServerConfig& config) {
  if (!config.tls) return grpc::InsecureServerCredentials();
  // As go-plugin: the client must present exactly the certificate it announced.
  grpc::SslServerCredentialsOptions options(
      GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  options.pem_root_certs = config.tls->client_ca_pem;
  options.pem_key_cert_pairs.push_back({config.tls->key_pem, config.tls->cert_pem});
  return grpc::SslServerCredentials(options);
}

}  // namespace

PluginServer::PluginServer(PendingService service)
    : provider6_(service),
      provider5_(std::move(service)),
      controller_(shutdown_),
      stdio_(shutdown_),
      health_(shutdown_) {}

std::unique_ptr<PluginServer> PluginServer::start(PendingService service,
                                                  const PluginServerConfig& config,
                                                  std::string& error) {
  std::unique_ptr<PluginServer> self(new PluginServer(std::move(service)));
  // Debian builds abseil without NDEBUG, which leaves its Mutex checking every lock for
  // deadlock cycles in one global graph behind one lock: a quarter of the host's CPU per RPC
  // at ten concurrent calls (tests/bench), for a check meant for tests.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  grpc::ServerBuilder builder;
  const bool unix_socket = config.listen.network == "unix";
  int port = 0;
  builder.AddListeningPort(unix_socket ? "unix:" + config.listen.address : config.listen.address,
                           credentials(config), unix_socket ? nullptr : &port);
  builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
  builder.SetMaxSendMessageSize(kMaxMessageBytes);
  builder.RegisterService(&self->provider6_);
  builder.RegisterService(&self->provider5_);
  builder.RegisterService(&self->controller_);
  builder.RegisterService(&self->stdio_);
  builder.RegisterService(&self->health_);
  self->server_ = builder.BuildAndStart();
  if (!self->server_ || (!unix_socket && port == 0)) {
    error = "cannot serve gRPC on " + config.listen.network + " " + config.listen.address;
    return nullptr;
  }
  self->address_ = config.listen;
  if (unix_socket) {
#if !defined(_WIN32)
    // The directory is private already; this keeps the socket itself owner-only as well.
    ::chmod(config.listen.address.c_str(), 0600);
#endif
  } else {
    const auto colon = config.listen.address.rfind(':');
    self->address_.address = config.listen.address.substr(0, colon + 1) + std::to_string(port);
  }
  return self;
}

void PluginServer::stop(std::chrono::milliseconds grace) {
  if (stopped_ || !server_) return;
  stopped_ = true;
  // Ends the stdio stream, which would otherwise hold Shutdown open for the whole grace.
  shutdown_.request();
  server_->Shutdown(std::chrono::system_clock::now() + grace);
  server_->Wait();
}

PluginServer::~PluginServer() {
  stop();
}

}  // namespace luaform::protocol
