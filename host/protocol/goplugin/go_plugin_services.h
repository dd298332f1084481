// go-plugin's own services: GRPCController (the CLI asks us to exit), GRPCStdio (the CLI
// subscribes to our output; we log to stderr directly, so the stream stays silent) and the
// standard health service, whose service named "plugin" go-plugin's clients may ask about.
#pragma once

#include "host/protocol/goplugin/shutdown_signal.h"
#include "host/protocol/proto/go_plugin.grpc.pb.h"
#include "host/protocol/proto/health.grpc.pb.h"

namespace luaform::protocol {

class ControllerService final : public plugin::GRPCController::Service {
 public:
  explicit ControllerService(ShutdownSignal& shutdown) : shutdown_(shutdown) {}
  // Replies, then lets the serve loop stop the server; the process exits right after, well
  // inside the two seconds the CLI waits before killing it.
  grpc::Status Shutdown(grpc::ServerContext* ctx, const plugin::Empty* req,
                        plugin::Empty* resp) override;

 private:
  ShutdownSignal& shutdown_;
};

class StdioService final : public plugin::GRPCStdio::Service {
 public:
  explicit StdioService(ShutdownSignal& shutdown) : shutdown_(shutdown) {}
  // Holds the stream open until shutdown or until the client goes away.
  grpc::Status StreamStdio(grpc::ServerContext* ctx, const google::protobuf::Empty* req,
                           grpc::ServerWriter<plugin::StdioData>* writer) override;

 private:
  ShutdownSignal& shutdown_;
};

// grpc.health.v1 on the synchronous API, in place of gRPC's default health service: that one
// is a callback service, and registering it gives the server a second thread polling the same
// sockets, woken on every call: a third of the host's CPU per PlanResourceChange, one call at a
// time (tests/bench/README.md). The server as a whole ("") and "plugin" are serving until
// shutdown is requested.
class HealthService final : public grpc::health::v1::Health::Service {
 public:
  explicit HealthService(ShutdownSignal& shutdown) : shutdown_(shutdown) {}
  // NOT_FOUND for a service name we do not have, as the health protocol asks.
  grpc::Status Check(grpc::ServerContext* ctx, const grpc::health::v1::HealthCheckRequest* req,
                     grpc::health::v1::HealthCheckResponse* resp) override;
  // Sends the status (SERVICE_UNKNOWN for a name we do not have) and holds the stream open
  // until shutdown, when a served name gets NOT_SERVING, or until the client goes away.
  grpc::Status Watch(grpc::ServerContext* ctx, const grpc::health::v1::HealthCheckRequest* req,
                     grpc::ServerWriter<grpc::health::v1::HealthCheckResponse>* writer) override;

 private:
  ShutdownSignal& shutdown_;
};

}  // namespace luaform::protocol
