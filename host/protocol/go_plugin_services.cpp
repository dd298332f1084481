#include "host/protocol/go_plugin_services.h"

#include <chrono>

namespace luaform::protocol {

grpc::Status ControllerService::Shutdown(grpc::ServerContext*, const plugin::Empty*,
                                         plugin::Empty*) {
  shutdown_.request();
  return grpc::Status::OK;
}

grpc::Status StdioService::StreamStdio(grpc::ServerContext* ctx, const google::protobuf::Empty*,
                                       grpc::ServerWriter<plugin::StdioData>*) {
  // Polling keeps this simple: a sync handler has no callback for client cancellation.
  while (!shutdown_.wait_for(std::chrono::milliseconds(100))) {
    if (ctx->IsCancelled()) break;
  }
  return grpc::Status::OK;
}

}  // namespace luaform::protocol
