#include "host/protocol/goplugin/go_plugin_services.h"

#include <chrono>
#include <string>

namespace luaform::protocol {

grpc::Status ControllerService::Shutdown(grpc::ServerContext*, const plugin::Empty*,
                                         plugin::Empty*) {
  shutdown_.request();
  return grpc::Status::OK;
}

namespace {

using grpc::health::v1::HealthCheckResponse;

// Returns when shutdown is requested (true) or the client has gone away (false). Polling keeps
// this simple: a sync handler has no callback for client cancellation.
bool hold_until_shutdown(grpc::ServerContext* ctx, const ShutdownSignal& shutdown) {
  while (!shutdown.wait_for(std::chrono::milliseconds(100))) {
    if (ctx->IsCancelled()) return false;
  }
  return true;
}

bool is_served(const std::string& service) {
  return service.empty() || service == "plugin";
}

HealthCheckResponse health_status(HealthCheckResponse::ServingStatus status) {
  HealthCheckResponse resp;
  resp.set_status(status);
  return resp;
}

}  // namespace

grpc::Status StdioService::StreamStdio(grpc::ServerContext* ctx, const google::protobuf::Empty*,
                                       grpc::ServerWriter<plugin::StdioData>*) {
  hold_until_shutdown(ctx, shutdown_);
  return grpc::Status::OK;
}

grpc::Status HealthService::Check(grpc::ServerContext*,
                                  const grpc::health::v1::HealthCheckRequest* req,
                                  HealthCheckResponse* resp) {
  if (!is_served(req->service())) {
    return {grpc::StatusCode::NOT_FOUND, "no service named \"" + req->service() + "\""};
  }
  resp->set_status(shutdown_.requested() ? HealthCheckResponse::NOT_SERVING
                                         : HealthCheckResponse::SERVING);
  return grpc::Status::OK;
}

grpc::Status HealthService::Watch(grpc::ServerContext* ctx,
                                  const grpc::health::v1::HealthCheckRequest* req,
                                  grpc::ServerWriter<HealthCheckResponse>* writer) {
  if (!is_served(req->service())) {
    writer->Write(health_status(HealthCheckResponse::SERVICE_UNKNOWN));
    hold_until_shutdown(ctx, shutdown_);
    return grpc::Status::OK;
  }
  if (!shutdown_.requested()) writer->Write(health_status(HealthCheckResponse::SERVING));
  if (hold_until_shutdown(ctx, shutdown_)) {
    writer->Write(health_status(HealthCheckResponse::NOT_SERVING));
  }
  return grpc::Status::OK;
}

}  // namespace luaform::protocol
