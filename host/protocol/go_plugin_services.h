// go-plugin's own services: GRPCController (the CLI asks us to exit) and GRPCStdio (the CLI
// subscribes to our output; we log to stderr directly, so the stream stays silent).
#pragma once

#include "host/protocol/proto/go_plugin.grpc.pb.h"
#include "host/protocol/shutdown_signal.h"

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

}  // namespace luaform::protocol
