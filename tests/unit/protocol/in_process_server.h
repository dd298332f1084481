// A gRPC server of only the services a test hands it, called through an in-process channel:
// gRPC runs each handler as it runs it for the CLI's calls, with no socket or TLS to set up.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <initializer_list>
#include <memory>

namespace luaform::protocol::testing {

class InProcessServer {
 public:
  // The services must outlive the server: declare them before it.
  explicit InProcessServer(std::initializer_list<grpc::Service*> services) {
    grpc::ServerBuilder builder;
    for (grpc::Service* service : services) builder.RegisterService(service);
    server_ = builder.BuildAndStart();
  }
  ~InProcessServer() { stop(std::chrono::milliseconds(500)); }
  InProcessServer(const InProcessServer&) = delete;
  InProcessServer& operator=(const InProcessServer&) = delete;

  std::shared_ptr<grpc::Channel> channel() const {
    return server_->InProcessChannel(grpc::ChannelArguments());
  }

  // Stops the server, waiting up to `grace` for the calls still running before cancelling
  // them (a stream a handler holds open would otherwise keep the test from ending). How long
  // it took: a handler that returned by itself ends it well inside `grace`.
  std::chrono::steady_clock::duration stop(std::chrono::milliseconds grace) {
    const auto start = std::chrono::steady_clock::now();
    if (server_ && !stopped_) {
      stopped_ = true;
      server_->Shutdown(std::chrono::system_clock::now() + grace);
      server_->Wait();
    }
    return std::chrono::steady_clock::now() - start;
  }

 private:
  std::unique_ptr<grpc::Server> server_;
  bool stopped_ = false;
};

}  // namespace luaform::protocol::testing
