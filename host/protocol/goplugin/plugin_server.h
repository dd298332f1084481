// The gRPC server a plugin process runs: the provider service for both protocol versions,
// the health service, go-plugin's controller and stdio services, on one unix socket, with or
// without mutual TLS. serve() wraps it with the handshake; tests drive it directly.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include <grpcpp/server.h>

#include "host/protocol/goplugin/go_plugin_services.h"
#include "host/protocol/goplugin/handshake.h"
#include "host/protocol/goplugin/shutdown_signal.h"
#include "host/protocol/tfplugin/pending_service.h"
#include "host/protocol/tfplugin/tfplugin5_server.h"
#include "host/protocol/tfplugin/tfplugin6_server.h"

namespace luaform::protocol {

struct MutualTls {
  std::string cert_pem;       // our certificate
  std::string key_pem;        // its private key
  std::string client_ca_pem;  // the only certificate a client may present
};

struct PluginServerConfig {
  // A unix socket, or "tcp" "127.0.0.1:0" for a port the system picks (address() tells it).
  ListenAddress listen;
  std::optional<MutualTls> tls;  // nullopt: plaintext (debug mode, TF_DISABLE_PLUGIN_TLS)
};

class PluginServer {
 public:
  // Starts listening; nullptr and `error` set when the socket or credentials are unusable.
  static std::unique_ptr<PluginServer> start(PendingService service,
                                             const PluginServerConfig& config, std::string& error);
  ~PluginServer();  // stops the server if stop() was not called
  PluginServer(const PluginServer&) = delete;
  PluginServer& operator=(const PluginServer&) = delete;

  // Where it listens, with the port the system picked for "tcp" "HOST:0".
  const ListenAddress& address() const { return address_; }
  // Set by GRPCController.Shutdown; anyone may request it (signals, tests).
  ShutdownSignal& shutdown_signal() { return shutdown_; }
  // Stops accepting calls and waits up to `grace` for running ones before cancelling them.
  void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(1000));

 private:
  explicit PluginServer(PendingService service);

  ShutdownSignal shutdown_;
  Tfplugin6Server provider6_;
  Tfplugin5Server provider5_;
  ControllerService controller_;
  StdioService stdio_;
  HealthService health_;
  std::unique_ptr<grpc::Server> server_;
  ListenAddress address_;
  bool stopped_ = false;
};

}  // namespace luaform::protocol
